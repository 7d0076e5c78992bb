-- The ledger: transactions are the truth, profiles.balance follows them by trigger, and
-- wallet_balances is the one place that computes the available balance.

create table public.transactions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  type public.transaction_type not null,
  amount numeric not null,
  status text not null default 'pending',
  cryptocurrency text,
  buy_request_id uuid references public.buy_requests (id) on delete set null,
  withdraw_request_id uuid references public.withdraw_requests (id) on delete set null,
  date timestamptz not null default now(),
  -- numeric(14,2) in range and scale, declared as a check so that 3 decimals are refused, not rounded.
  constraint transactions_amount_is_usd check (private.is_usd_amount(amount)),
  constraint transactions_status_not_blank check (btrim(status) <> ''),
  constraint transactions_status_length check (char_length(status) <= 50)
);
comment on table public.transactions is 'The ledger: every movement of a person''s USD balance.';
comment on column public.transactions.type is 'deposit and sell add to the balance; withdraw and buy take from it.';
comment on column public.transactions.amount is 'USD; positive, at most 2 decimals.';
comment on column public.transactions.status is
  'pending, complete or an admin-defined status type; only complete entries count towards the balance.';
comment on column public.transactions.cryptocurrency is 'The coin bought (buy entries only).';
comment on column public.transactions.buy_request_id is 'The approved buy request this entry settles.';
comment on column public.transactions.withdraw_request_id is 'The approved withdraw request this entry settles.';

create index transactions_user_id_date_idx on public.transactions (user_id, date desc);
comment on index public.transactions_user_id_date_idx is 'A person''s transaction history, newest first.';
create index transactions_date_idx on public.transactions (date desc);
comment on index public.transactions_date_idx is 'The admin transaction list, newest first.';
create index transactions_buy_request_id_idx on public.transactions (buy_request_id);
comment on index public.transactions_buy_request_id_idx is 'Finds the entry of a buy request; supports its foreign key.';
create index transactions_withdraw_request_id_idx on public.transactions (withdraw_request_id);
comment on index public.transactions_withdraw_request_id_idx is
  'Finds the entry of a withdraw request; supports its foreign key.';

alter table public.transactions enable row level security;
revoke all on table public.transactions from anon, authenticated, service_role;
grant select, insert (user_id, type, amount, status) on table public.transactions to authenticated;
grant select on table public.transactions to service_role;

create policy "People can read their own transactions and admins can read all"
  on public.transactions for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));
comment on policy "People can read their own transactions and admins can read all" on public.transactions is
  'Own history for people; the whole ledger for admins.';

create policy "Admins can create pending deposits"
  on public.transactions for insert to authenticated
  with check ((select private.is_admin()) and type = 'deposit' and status = 'pending');
comment on policy "Admins can create pending deposits" on public.transactions is
  'The only plain write to the ledger: a deposit starts pending and moves money only via set_transaction_status.';

create function private.ledger_effect(p_type public.transaction_type, p_amount numeric, p_status text)
returns numeric
language sql
immutable
set search_path = ''
as $$
  select case
    when p_status <> 'complete' then 0
    when p_type in ('deposit', 'sell') then p_amount
    else -p_amount
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
begin
  -- Deltas (balance = balance + x) stay right under concurrent writers: each update re-reads the
  -- locked row, whereas recomputing a sum would read a snapshot taken before the lock was granted.
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
  'Keeps profiles.balance equal to complete deposits + sells - complete withdraws - buys.';
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
  select sum(withdraw_requests.amount) as reserved
  from public.withdraw_requests
  where withdraw_requests.user_id = profiles.id
    and withdraw_requests.status not in ('approved', 'rejected')
) as open_requests on true;
comment on view public.wallet_balances is
  'Balance, amount reserved by open withdraw requests and the available rest, per person. Security invoker: '
  'a person sees their own row, an admin every row. The RPCs read it too, so it is computed in one place.';
comment on column public.wallet_balances.balance is 'Ledger balance (profiles.balance).';
comment on column public.wallet_balances.reserved is 'Sum of open (not approved, not rejected) withdraw requests.';
comment on column public.wallet_balances.available is 'balance - reserved; never below zero.';

revoke all on table public.wallet_balances from anon, authenticated, service_role;
grant select on table public.wallet_balances to authenticated, service_role;
