-- The ledger: transactions are the truth, profiles.balance follows them by trigger, and
-- wallet_balances is the one place that computes the available balance.

create function private.is_coin_fill(p_type public.transaction_type, p_quantity numeric, p_price numeric)
returns boolean
language plpgsql
immutable
set search_path = ''
as $$
begin
  return case
    when p_type in ('deposit', 'withdraw') then p_quantity is null and p_price is null
    else (p_quantity is null) = (p_price is null) and (p_quantity is null or (p_quantity > 0 and p_price > 0))
  end;
end;
$$;
comment on function private.is_coin_fill(public.transaction_type, numeric, numeric) is
  'Whether a transaction''s quantity and price fit its type: none for deposits and withdrawals; for buys and '
  'sells both or neither, both positive (transactions_coin_fill).';

create table public.transactions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete restrict,
  type public.transaction_type not null,
  amount numeric not null,
  status text not null default 'pending',
  cryptocurrency text,
  buy_request_id uuid references public.buy_requests (id) on delete set null,
  withdraw_request_id uuid references public.withdraw_requests (id) on delete set null,
  date timestamptz not null default now(),
  quantity numeric,
  price numeric,
  -- Its foreign key is added with public.sell_requests (17-sell-requests.sql), which is defined later.
  sell_request_id uuid,
  -- numeric(14,2) in range and scale, declared as a check so that 3 decimals are refused, not rounded.
  constraint transactions_amount_is_usd check (private.is_usd_amount(amount)),
  constraint transactions_status_not_blank check (btrim(status) <> ''),
  constraint transactions_status_length check (char_length(status) <= 50),
  constraint transactions_coin_fill check (private.is_coin_fill(type, quantity, price))
);
comment on table public.transactions is 'The ledger: every movement of a person''s USD balance.';
comment on column public.transactions.type is 'deposit and sell add to the balance; withdraw and buy take from it.';
comment on column public.transactions.amount is 'USD; positive, at most 2 decimals.';
comment on column public.transactions.status is
  'pending, complete or an admin-defined status type; only complete entries count towards the balance.';
comment on column public.transactions.cryptocurrency is 'The coin bought or sold (buy and sell entries only).';
comment on column public.transactions.buy_request_id is 'The approved buy request this entry settles.';
comment on column public.transactions.withdraw_request_id is 'The approved withdraw request this entry settles.';
comment on column public.transactions.quantity is
  'Coins bought or sold (buy and sell entries): USD amount / price, truncated to 18 decimal places.';
comment on column public.transactions.price is 'USD per coin the entry was filled at (buy and sell entries).';
comment on column public.transactions.sell_request_id is 'The approved sell request this entry settles.';
comment on constraint transactions_coin_fill on public.transactions is
  'Only buy and sell entries carry a quantity and a price, both positive, both or neither.';
create index transactions_user_id_date_idx on public.transactions (user_id, date desc);
comment on index public.transactions_user_id_date_idx is 'A person''s transaction history, newest first.';
create index transactions_date_idx on public.transactions (date desc);
comment on index public.transactions_date_idx is 'The admin transaction list, newest first.';
create index transactions_buy_request_id_idx on public.transactions (buy_request_id);
comment on index public.transactions_buy_request_id_idx is 'Finds the entry of a buy request; supports its foreign key.';
create index transactions_withdraw_request_id_idx on public.transactions (withdraw_request_id);
comment on index public.transactions_withdraw_request_id_idx is
  'Finds the entry of a withdraw request; supports its foreign key.';
-- The admin list sorted by amount, or filtered by type or status, newest first within the filter; its
-- person filter uses (user_id, date desc).
create index transactions_amount_idx on public.transactions (amount);
comment on index public.transactions_amount_idx is 'Admin transaction list sorted by amount.';
create index transactions_type_date_idx on public.transactions (type, date desc);
comment on index public.transactions_type_date_idx is 'Admin transaction list filtered by type, newest first.';
create index transactions_status_date_idx on public.transactions (status, date desc);
comment on index public.transactions_status_date_idx is 'Admin transaction list filtered by status, newest first.';
create index transactions_user_id_cryptocurrency_idx on public.transactions (user_id, cryptocurrency)
  include (type, amount, quantity)
  where type in ('buy', 'sell') and status = 'complete' and quantity is not null;
comment on index public.transactions_user_id_cryptocurrency_idx is
  'A person''s completed buy and sell entries per coin, covering what the holdings sum (index-only scans).';
create unique index transactions_sell_request_id_idx on public.transactions (sell_request_id);
comment on index public.transactions_sell_request_id_idx is
  'One entry per sell request (a second credit is impossible); supports its foreign key.';
alter table public.transactions enable row level security;
alter table public.transactions replica identity full;
alter publication supabase_realtime add table public.transactions;
revoke all on table public.transactions from anon, authenticated, service_role;
grant select on table public.transactions to authenticated;
grant select on table public.transactions to service_role;
create policy "People can read their own transactions and admins can read all"
  on public.transactions for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));
comment on policy "People can read their own transactions and admins can read all" on public.transactions is
  'Own history for people; the whole ledger for admins.';
create policy "Only aal2 sessions can create deposits"
  on public.transactions as restrictive for insert to authenticated
  with check (((select auth.jwt()) ->> 'aal') = 'aal2');
comment on policy "Only aal2 sessions can create deposits" on public.transactions is
  'The one plain ledger write (an admin''s pending deposit) needs a second factor.';
create policy "Transactions are read at aal2 or own ones without a factor"
  on public.transactions as restrictive for select to authenticated
  using (
    (select coalesce(((select auth.jwt()) ->> 'aal') = 'aal2', false))
    or (user_id = (select auth.uid()) and not (select private.has_verified_factor()))
  );
comment on policy "Transactions are read at aal2 or own ones without a factor" on public.transactions is
  'Other people''s transactions only at aal2 (admins), and a person with a verified factor reads their own '
  'only at aal2 too: a log-in left at the code step reads none.';
create function private.ledger_effect(p_type public.transaction_type, p_amount numeric, p_status text)
returns numeric
language plpgsql
immutable
set search_path = ''
as $$
begin
  return case
    when p_status <> 'complete' then 0
    when p_type in ('deposit', 'sell') then p_amount
    else -p_amount
  end;
end;
$$;
comment on function private.ledger_effect(public.transaction_type, numeric, text) is
  'What one ledger entry adds to the balance: its signed amount when complete, else 0.';
create function private.validate_transaction() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform private.assert_usd_amount(new.amount);
  new.status := btrim(new.status);
  return new;
end;
$$;
comment on function private.validate_transaction() is 'Clear errors for a bad amount before the check constraint.';
create trigger validate_transaction_before_insert
  before insert on public.transactions
  for each row execute function private.validate_transaction();
comment on trigger validate_transaction_before_insert on public.transactions is 'Amount checks for every entry.';
create function private.apply_ledger_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  net numeric;
begin
  -- Deltas (balance = balance + x) stay right under concurrent writers: each update re-reads the
  -- locked row, whereas recomputing a sum would read a snapshot taken before the lock was granted.
  if tg_op = 'UPDATE' and new.user_id = old.user_id then
    net := private.ledger_effect(new.type, new.amount, new.status)
      - private.ledger_effect(old.type, old.amount, old.status);
    update public.profiles set balance = balance + net where id = new.user_id and net <> 0;
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    update public.profiles
      set balance = balance - private.ledger_effect(old.type, old.amount, old.status)
      where id = old.user_id and private.ledger_effect(old.type, old.amount, old.status) <> 0;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    update public.profiles
      set balance = balance + private.ledger_effect(new.type, new.amount, new.status)
      where id = new.user_id and private.ledger_effect(new.type, new.amount, new.status) <> 0;
  end if;
  return null;
end;
$$;
comment on function private.apply_ledger_change() is
  'Keeps profiles.balance equal to complete deposits + sells - complete withdraws - buys; an update moves the '
  'balance by its net difference at once.';
revoke execute on function private.apply_ledger_change() from public;
create trigger apply_ledger_change_after_write
  after insert or update or delete on public.transactions
  for each row execute function private.apply_ledger_change();
comment on trigger apply_ledger_change_after_write on public.transactions is 'The ledger-balance trigger.';
create function private.audit_deposit() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.write_audit(
    'deposit.create',
    'transactions',
    new.id,
    jsonb_build_object('user_id', new.user_id, 'amount', new.amount, 'status', new.status)
  );
  return null;
end;
$$;
comment on function private.audit_deposit() is 'Records every new deposit in audit_log.';
revoke execute on function private.audit_deposit() from public;
create trigger audit_deposit_after_insert
  after insert on public.transactions
  for each row when (new.type = 'deposit')
  execute function private.audit_deposit();
comment on trigger audit_deposit_after_insert on public.transactions is 'Deposits are admin actions: audited.';
create view public.wallet_balances
with (security_invoker = true)
as
select
  profiles.id as user_id,
  profiles.balance,
  coalesce(open_requests.reserved, 0) as reserved,
  profiles.balance - coalesce(open_requests.reserved, 0) as available
from public.profiles
left join lateral (
  select
    coalesce((
      select sum(withdraw_requests.amount)
      from public.withdraw_requests
      where withdraw_requests.user_id = profiles.id
        and withdraw_requests.status not in ('approved', 'rejected', 'cancelled')
    ), 0)
    + coalesce((
      select sum(buy_requests.amount)
      from public.buy_requests
      where buy_requests.user_id = profiles.id
        and buy_requests.status = 'pending'
        and buy_requests.expires_at > now()
    ), 0) as reserved
) as open_requests on true;
comment on view public.wallet_balances is
  'Balance, amount reserved by open withdraw requests and pending buy requests, and the available rest, per '
  'person. Security invoker: a person sees their own row, an admin every row. The RPCs read it too, so it is '
  'computed in one place.';
comment on column public.wallet_balances.balance is 'Ledger balance (profiles.balance).';
comment on column public.wallet_balances.reserved is
  'Open withdraw requests (not approved, rejected or cancelled) plus pending buy requests that have not expired: '
  'a buy reserves its USD from submission, as a withdrawal does.';
comment on column public.wallet_balances.available is
  'balance - reserved: what a new buy or withdraw request may take; every request and approval keeps it at or '
  'above zero under the person''s lock.';
revoke all on table public.wallet_balances from anon, authenticated, service_role;
grant select on table public.wallet_balances to authenticated, service_role;
create function private.keep_settled_entries_final() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if (old.buy_request_id is not null or old.withdraw_request_id is not null or old.sell_request_id is not null)
    and (
      (new.user_id, new.type, new.amount, new.status, new.cryptocurrency, new.date, new.quantity, new.price)
        is distinct from
      (old.user_id, old.type, old.amount, old.status, old.cryptocurrency, old.date, old.quantity, old.price)
      -- Only "on delete set null" may touch the links (the request's person was deleted).
      or (new.buy_request_id is not null and new.buy_request_id is distinct from old.buy_request_id)
      or (new.withdraw_request_id is not null and new.withdraw_request_id is distinct from old.withdraw_request_id)
      or (new.sell_request_id is not null and new.sell_request_id is distinct from old.sell_request_id)
    )
  then
    raise exception 'Transactions of approved requests are final' using errcode = 'P0001';
  end if;
  return new;
end;
$$;
comment on function private.keep_settled_entries_final() is
  'Refuses any change to a ledger entry that settles a buy, sell or withdraw request (its links may only be cleared).';
create trigger keep_settled_entries_final_before_update
  before update on public.transactions
  for each row execute function private.keep_settled_entries_final();
comment on trigger keep_settled_entries_final_before_update on public.transactions is
  'Settled entries are final for every writer, whatever the grants.';
