-- A journal entry opened its accounts twice when it waited in the queue (once when queued, so the reconciliation
-- finds the accounts of entries awaiting seal, and again when sealed) and an insert ... on conflict of four rows
-- costs about as much as the postings' own insert. The writer now opens them once, before it seals or queues;
-- the sealer appends entries whose accounts their committed writer opened.

create or replace function ledger.append_entry(
  p_transaction_id uuid,
  p_transaction_type public.transaction_type,
  p_transaction_status text,
  p_accounts text[],
  p_currencies text[],
  p_amounts numeric[],
  p_recorded_at timestamptz default now()
) returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  head ledger.head;
  next_seq bigint;
  correcting bigint;
  new_hash bytea;
begin
  select * into head from ledger.head for update;
  if p_transaction_id is not null then
    select max(seq) into correcting from ledger.entries where transaction_id = p_transaction_id;
  end if;
  next_seq := head.seq + 1;
  new_hash := ledger.entry_hash(ledger.canonical_entry(
    next_seq, head.hash, p_recorded_at, p_transaction_id, p_transaction_type, p_transaction_status, correcting,
    ledger.canonical_postings(p_accounts, p_currencies, p_amounts)
  ));
  insert into ledger.entries
    (seq, recorded_at, transaction_id, transaction_type, transaction_status, corrects, prev_hash, hash)
  values
    (next_seq, p_recorded_at, p_transaction_id, p_transaction_type, p_transaction_status, correcting, head.hash,
      new_hash);
  insert into ledger.postings (entry_seq, position, account, currency, amount)
  select next_seq, legs.position, legs.account, legs.currency, legs.amount
  from unnest(p_accounts, p_currencies, p_amounts) with ordinality as legs (account, currency, amount, position);
  update ledger.head set seq = next_seq, hash = new_hash;
  return next_seq;
end;
$$;
comment on function ledger.append_entry(uuid, public.transaction_type, text, text[], text[], numeric[], timestamptz) is
  'Appends one hashed entry with its postings at the head of the chain, to accounts already opened '
  '(ledger.open_accounts); called by the journal''s trigger and the sealer, holding the head''s lock.';

create or replace function ledger.record_transaction_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  before_row public.transactions;
  after_row public.transactions;
  accounts text[];
  currencies text[];
  amounts numeric[];
begin
  if tg_op <> 'INSERT' then
    before_row := old;
  end if;
  if tg_op <> 'DELETE' then
    after_row := new;
  end if;
  select array_agg(delta.account order by delta.currency collate "C", delta.account collate "C"),
         array_agg(delta.currency order by delta.currency collate "C", delta.account collate "C"),
         array_agg(delta.amount order by delta.currency collate "C", delta.account collate "C")
  into accounts, currencies, amounts
  from (
    select legs.account, legs.currency, sum(legs.amount) as amount
    from (
      select * from ledger.effect_of(after_row.user_id, after_row.type, after_row.status, after_row.amount,
        after_row.cryptocurrency, after_row.quantity)
      union all
      select moved.account, moved.currency, -moved.amount
      from ledger.effect_of(before_row.user_id, before_row.type, before_row.status, before_row.amount,
        before_row.cryptocurrency, before_row.quantity) as moved
    ) as legs
    group by legs.account, legs.currency
    having sum(legs.amount) <> 0
  ) as delta;
  if accounts is null then
    return null;
  end if;
  if exists (
    select from unnest(currencies, amounts) as legs (currency, amount) group by legs.currency having sum(legs.amount) <> 0
  ) then
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
comment on function ledger.record_transaction_change() is
  'Writes the journal entry of a change to a transactions row (when it changes what the row moves), in the '
  'same database transaction, opening its accounts: sealed at the head when its lock is free, else queued '
  'unsealed for the next holder.';
