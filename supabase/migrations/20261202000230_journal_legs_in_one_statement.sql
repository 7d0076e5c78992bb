-- A journal entry's legs took four statements before the head: the select of the legs, the row's effect after
-- the change and its effect before (each a statement inside ledger.effect_of; the before also ran for an insert,
-- which has none), and a second pass over the legs to check each currency sums to zero. Two now: the missing side
-- is filtered out before its scan starts, and the sums per currency come with the legs. The entries are the same.
-- The function keeps one (generic) plan: a plan made for the operation at hand drops the missing side when it is
-- planned, so it looked cheaper and was made again at every call.

create or replace function ledger.record_transaction_change() returns trigger
language plpgsql
security definer
set search_path = ''
-- One plan for every change: a plan made for the operation at hand would be made again at each call.
set plan_cache_mode = force_generic_plan
as $$
declare
  before_row public.transactions;
  after_row public.transactions;
  accounts text[];
  currencies text[];
  amounts numeric[];
  unbalanced boolean;
begin
  if tg_op <> 'INSERT' then
    before_row := old;
  end if;
  if tg_op <> 'DELETE' then
    after_row := new;
  end if;
  -- One statement: the side an insert or a delete lacks is not read (its filter is decided before the scan), and
  -- whether each currency sums to zero comes with the legs.
  select array_agg(delta.account order by delta.currency collate "C", delta.account collate "C"),
         array_agg(delta.currency order by delta.currency collate "C", delta.account collate "C"),
         array_agg(delta.amount order by delta.currency collate "C", delta.account collate "C"),
         coalesce(bool_or(delta.currency_sum <> 0), false)
  into accounts, currencies, amounts, unbalanced
  from (
    select legs.account, legs.currency, sum(legs.amount) as amount,
      sum(sum(legs.amount)) over (partition by legs.currency) as currency_sum
    from (
      select * from ledger.effect_of(after_row.user_id, after_row.type, after_row.status, after_row.amount,
        after_row.cryptocurrency, after_row.quantity)
      where tg_op <> 'DELETE'
      union all
      select moved.account, moved.currency, -moved.amount
      from ledger.effect_of(before_row.user_id, before_row.type, before_row.status, before_row.amount,
        before_row.cryptocurrency, before_row.quantity) as moved
      where tg_op <> 'INSERT'
    ) as legs
    group by legs.account, legs.currency
    having sum(legs.amount) <> 0
  ) as delta;
  if accounts is null then
    return null;
  end if;
  if unbalanced then
    raise exception 'Journal entry does not balance for transaction %', coalesce(after_row.id, before_row.id)
      using errcode = '23514';
  end if;
  -- Opened here, sealed or queued: the reconciliation counts queued postings by their account, and the sealer
  -- appends them later to accounts this transaction opened.
  perform ledger.open_accounts(accounts, currencies);
  -- Never wait for the head: a writer that waited would hold the head through its commit's flush, and writers
  -- would flush one by one. The one that gets it seals what others queued, then its own entry; the others queue.
  perform from ledger.head for update skip locked;
  if found then
    perform ledger.seal_queued();
    perform ledger.append_entry(
      coalesce(after_row.id, before_row.id),
      coalesce(after_row.type, before_row.type),
      case when tg_op = 'DELETE' then 'deleted' else after_row.status end,
      accounts, currencies, amounts
    );
  else
    insert into ledger.unsealed_entries (transaction_id, transaction_type, transaction_status, accounts, currencies, amounts)
    values (
      coalesce(after_row.id, before_row.id),
      coalesce(after_row.type, before_row.type),
      case when tg_op = 'DELETE' then 'deleted' else after_row.status end,
      accounts, currencies, amounts
    );
  end if;
  return null;
end;
$$;
