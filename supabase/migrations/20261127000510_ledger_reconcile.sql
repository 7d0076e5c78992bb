-- The operator's reconciliation: the chain verified from genesis (or from a checkpoint's head), every
-- person's balance and holdings recomputed from the postings and compared with the stored ones, every entry
-- balanced per currency, every transactions row and request with exactly the entries its status implies.
-- Each difference names the entry that caused it. Set-based, so a million entries verify in one pass. The
-- report itself (ledger.reconcile) comes with the checkpoints, whose latest root it carries.

create function ledger.canonical_posting(p_account text, p_currency text, p_amount numeric) returns text
language sql
immutable
set search_path = ''
as $$
  select '[' || to_json(p_account)::text || ',' || to_json(p_currency)::text || ','
    || to_json(trim_scale(p_amount)::text)::text || ']';
$$;
comment on function ledger.canonical_posting(text, text, numeric) is 'One posting in the canonical form.';

create or replace function ledger.canonical_postings(p_accounts text[], p_currencies text[], p_amounts numeric[])
returns text
language sql
immutable
set search_path = ''
as $$
  select '[' || coalesce(string_agg(ledger.canonical_posting(legs.account, legs.currency, legs.amount), ','
    order by legs.position), '') || ']'
  from unnest(p_accounts, p_currencies, p_amounts) with ordinality as legs (account, currency, amount, position);
$$;

create type ledger.difference as (
  "check" text,
  entry bigint,
  subject text,
  expected text,
  found text
);
comment on type ledger.difference is
  'One finding of the reconciliation: which check, the entry that caused it (null when none), what it concerns, '
  'what the journal (or chain) says and what was found.';

create function ledger.chain_differences(p_after_seq bigint, p_after_hash bytea)
returns setof ledger.difference
language sql
stable
set search_path = ''
as $$
  -- The canonical form written out here rather than through ledger.canonical_entry and canonical_posting:
  -- a SQL function with its own search_path is never inlined, and calling three per entry made a million
  -- entries take minutes. The reconciliation of an honest journal (tests/db/ledger.test.ts) holds the two equal.
  with legs as (
    select entry_seq,
      '[' || string_agg('[' || to_json(account)::text || ',' || to_json(currency)::text || ','
        || to_json(trim_scale(amount)::text)::text || ']', ',' order by position) || ']' as postings
    from ledger.postings
    where entry_seq > p_after_seq
    group by entry_seq
  ),
  chain as (
    select
      entries.seq,
      entries.prev_hash,
      entries.hash,
      coalesce(lag(entries.seq) over ordered, p_after_seq) as previous_seq,
      coalesce(lag(entries.hash) over ordered, p_after_hash) as previous_hash,
      sha256(convert_to('["coinvault-ledger-entry-v1",' || entries.seq || ',"' || encode(entries.prev_hash, 'hex')
        || '","' || to_char(entries.recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '",'
        || coalesce(to_json(entries.transaction_id::text)::text, 'null') || ','
        || coalesce(to_json(entries.transaction_type::text)::text, 'null') || ','
        || to_json(entries.transaction_status)::text || ',' || coalesce(entries.corrects::text, 'null') || ','
        || coalesce(legs.postings, '[]') || ']', 'UTF8')) as computed_hash
    from ledger.entries
    left join legs on legs.entry_seq = entries.seq
    where entries.seq > p_after_seq
    window ordered as (order by entries.seq)
  ),
  last_entry as (
    select seq, hash from ledger.entries where seq > p_after_seq order by seq desc limit 1
  )
  select 'chain: entries missing', seq, 'entries ' || (previous_seq + 1) || ' to ' || (seq - 1),
    'entry ' || (previous_seq + 1) || ' after entry ' || previous_seq, 'entry ' || seq
  from chain where seq <> previous_seq + 1
  union all
  select 'chain: previous hash differs', seq, 'entry ' || seq, encode(previous_hash, 'hex'), encode(prev_hash, 'hex')
  from chain where seq = previous_seq + 1 and prev_hash <> previous_hash
  union all
  select 'chain: hash differs from contents', seq, 'entry ' || seq, encode(computed_hash, 'hex'), encode(hash, 'hex')
  from chain where hash <> computed_hash
  union all
  select 'chain: head differs from last entry', head.seq, 'head',
    coalesce(last_entry.seq, p_after_seq) || ' ' || encode(coalesce(last_entry.hash, p_after_hash), 'hex'),
    head.seq || ' ' || encode(head.hash, 'hex')
  from ledger.head
  left join last_entry on true
  where (head.seq, head.hash) is distinct from (coalesce(last_entry.seq, p_after_seq), coalesce(last_entry.hash, p_after_hash));
$$;
comment on function ledger.chain_differences(bigint, bytea) is
  'Verifies the chain after an entry whose seq and hash are trusted (0 and 32 zero bytes: from genesis): gapless '
  'seq, each entry naming its predecessor''s hash, each hash matching its canonical form, the head at the last.';

create function ledger.book_differences() returns setof ledger.difference
language sql
stable
set search_path = ''
as $$
  with person_balances as (
    select accounts.owner_id, accounts.currency, accounts.name, -sum(postings.amount) as balance,
      max(postings.entry_seq) as last_entry
    from ledger.accounts
    join ledger.postings on postings.account = accounts.name
    where accounts.kind = 'person'
    group by accounts.owner_id, accounts.currency, accounts.name
  ),
  usd as (
    select
      coalesce(profiles.id, person_balances.owner_id) as person,
      coalesce(person_balances.balance, 0) as journal,
      profiles.balance as stored,
      person_balances.last_entry
    from public.profiles
    full join (select * from person_balances where currency = 'USD') as person_balances
      on person_balances.owner_id = profiles.id
  ),
  coins as (
    select
      coalesce(holdings.user_id, person_balances.owner_id) as person,
      coalesce(holdings.cryptocurrency, person_balances.currency) as coin,
      coalesce(person_balances.balance, 0) as journal,
      coalesce(holdings.quantity, 0) as stored,
      person_balances.last_entry
    from public.holdings
    full join (select * from person_balances where currency <> 'USD') as person_balances
      on person_balances.owner_id = holdings.user_id and person_balances.currency = holdings.cryptocurrency
  ),
  expected_by_transaction as (
    select transactions.id, effect.account, effect.amount
    from public.transactions
    cross join lateral ledger.effect_of(transactions.user_id, transactions.type, transactions.status,
      transactions.amount, transactions.cryptocurrency, transactions.quantity) as effect
  ),
  journaled_by_transaction as (
    select entries.transaction_id as id, postings.account, sum(postings.amount) as amount,
      max(entries.seq) as last_entry
    from ledger.entries
    join ledger.postings on postings.entry_seq = entries.seq
    where entries.transaction_id is not null
    group by entries.transaction_id, postings.account
  ),
  settled_requests as (
    select 'buy request' as kind, buy_requests.id, buy_requests.status::text as status,
      count(transactions.id) filter (where transactions.status = 'complete') as settled
    from public.buy_requests
    left join public.transactions on transactions.buy_request_id = buy_requests.id
    group by buy_requests.id
    union all
    select 'sell request', sell_requests.id, sell_requests.status::text,
      count(transactions.id) filter (where transactions.status = 'complete')
    from public.sell_requests
    left join public.transactions on transactions.sell_request_id = sell_requests.id
    group by sell_requests.id
    union all
    select 'withdraw request', withdraw_requests.id, withdraw_requests.status::text,
      count(transactions.id) filter (where transactions.status = 'complete')
    from public.withdraw_requests
    left join public.transactions on transactions.withdraw_request_id = withdraw_requests.id
    group by withdraw_requests.id
  )
  select 'entry: unbalanced', entry_seq, 'entry ' || entry_seq || ' in ' || currency, '0', sum(amount)::text
  from ledger.postings
  group by entry_seq, currency
  having sum(amount) <> 0
  union all
  select 'entry: no postings', entries.seq, 'entry ' || entries.seq, 'postings', 'none'
  from ledger.entries
  where not exists (select 1 from ledger.postings where postings.entry_seq = entries.seq)
  union all
  select 'balance differs', last_entry, 'person ' || person || ' USD', journal::text, coalesce(stored::text, 'no profile')
  from usd
  where journal <> coalesce(stored, 0)
  union all
  select 'holding differs', last_entry, 'person ' || person || ' ' || coalesce(coin, 'no coin'), journal::text,
    stored::text
  from coins
  where journal <> stored or coin is null
  union all
  select 'transaction differs from its entries',
    journaled.last_entry,
    'transaction ' || coalesce(expected.id, journaled.id) || ' ' || coalesce(expected.account, journaled.account),
    coalesce(expected.amount, 0)::text,
    coalesce(journaled.amount, 0)::text
  from expected_by_transaction as expected
  full join journaled_by_transaction as journaled
    on journaled.id = expected.id and journaled.account = expected.account
  where coalesce(expected.amount, 0) <> coalesce(journaled.amount, 0)
  union all
  select 'request settled ' || settled || ' times', null, kind || ' ' || id || ' (' || status || ')',
    case when status = 'approved' then '1' else '0' end, settled::text
  from settled_requests
  where settled <> case when status = 'approved' then 1 else 0 end;
$$;
comment on function ledger.book_differences() is
  'Recomputes from the postings and compares: every person''s USD balance with profiles.balance, their coins with '
  'the holdings view, every entry''s sum per currency with zero, every transactions row''s effect with the net of '
  'its entries, and every approved request with exactly one complete settling entry (others with none).';

revoke execute on all functions in schema ledger from public;
