-- The movements read hashes the corrected entries once per call (a hashed SubPlan) instead of testing each row
-- against an array of them: each row one probe however many corrections the journal holds. Same answers.

create or replace function private.coin_movements(p_user_id uuid)
returns table (
  transaction_id uuid,
  cryptocurrency text,
  moved_at timestamptz,
  quantity numeric,
  usd numeric
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  -- PL/pgSQL keeps the plan from call to call (a SQL function planned it again at every call).
  return query
  -- A row journaled once and sealed (the usual case) is its entry: the coin leg joined to the USD leg of the same
  -- entry, with no aggregate. A row with corrections (an operator's change) or with an entry still awaiting seal
  -- is netted over its entries.
  with single as (
    select entries.transaction_id, accounts.currency, coin.amount as coin_amount, usd_leg.amount as usd_amount,
      entries.seq as first_seq, entries.recorded_at
    -- The account's currency, not the posting's: the coin legs then come from the postings index alone.
    from ledger.accounts
    join ledger.postings as coin on coin.account = accounts.name
    join ledger.entries on entries.seq = coin.entry_seq
    left join ledger.postings as usd_leg
      on usd_leg.entry_seq = coin.entry_seq and usd_leg.account = 'person:' || p_user_id || ':USD'
    where accounts.owner_id = p_user_id and accounts.currency <> 'USD'
      and entries.corrects is null
      -- Corrected entries are hashed once per call (a hashed SubPlan: no join over the person's entries, and
      -- each row one probe however many corrections the journal holds); the queue, short, is one array.
      and entries.seq not in (select later.corrects from ledger.entries as later where later.corrects is not null)
      and entries.transaction_id <> all (array(
        select queued.transaction_id from ledger.unsealed_entries as queued where queued.transaction_id is not null
      ))
  ),
  -- The person's own entries awaiting seal count at once (a buy shows in the cost basis when it commits); they
  -- come after every sealed entry, as they will be sealed.
  legs as (
    select entries.transaction_id, postings.currency, postings.amount, entries.seq, entries.recorded_at
    from ledger.entries
    join ledger.postings on postings.entry_seq = entries.seq
    where entries.transaction_id in (
        select fixed.transaction_id from ledger.entries as fixed where fixed.corrects is not null
        union
        select queued.transaction_id from ledger.unsealed_entries as queued
      )
      and postings.account = any (array(select name from ledger.accounts where owner_id = p_user_id))
    union all
    select queued.transaction_id, queued_leg.currency, queued_leg.amount, null, queued.recorded_at
    from ledger.unsealed_entries as queued
    cross join unnest(queued.accounts, queued.currencies, queued.amounts) as queued_leg (account, currency, amount)
    where queued_leg.account = any (array(select name from ledger.accounts where owner_id = p_user_id))
  ),
  corrected as (
    select legs.transaction_id,
      max(legs.currency) filter (where legs.currency <> 'USD'),
      sum(legs.amount) filter (where legs.currency <> 'USD'),
      sum(legs.amount) filter (where legs.currency = 'USD'),
      min(legs.seq), min(legs.recorded_at)
    from legs
    group by legs.transaction_id
  ),
  moves as (
    select * from single
    union all
    select * from corrected
  )
  -- A credit to the person's coin account (negative) is coins in: a lot; a debit is coins out: a sale.
  select moves.transaction_id, moves.currency, coalesce(transactions.date, moves.recorded_at),
    -moves.coin_amount, abs(coalesce(moves.usd_amount, 0))
  from moves
  left join public.transactions on transactions.id = moves.transaction_id
  where moves.coin_amount <> 0
  order by moves.currency, coalesce(transactions.date, moves.recorded_at), moves.first_seq;
end;
$$;

