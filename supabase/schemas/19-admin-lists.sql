-- The admin lists, filtered and sorted on the server: the queues and the ledger with the person's name and
-- available balance beside each row (so a decision is taken knowing it), people with their available balance,
-- and the audit log with the acting person's name. Security invoker views, so row-level security of the
-- underlying tables decides who sees what (admins everything, a person only their own rows, nobody else the
-- audit log).
-- The balance is a scalar subquery rather than a join: Postgres drops it from any statement that does not
-- read the column (the `count(*)` of a page), and computes it for the page's rows only.
create view public.transactions_with_user
with (security_invoker = true)
as
select
  transactions.id,
  transactions.user_id,
  transactions.type,
  transactions.amount,
  transactions.status,
  transactions.cryptocurrency,
  transactions.buy_request_id,
  transactions.withdraw_request_id,
  transactions.date,
  profiles.full_name,
  profiles.email,
  (select wallet_balances.available from public.wallet_balances
   where wallet_balances.user_id = transactions.user_id) as available,
  case when transactions.status <> 'complete' then private.money_gate(transactions.user_id, transactions.type::text) end
    as held_because,
  proposal.proposed_by,
  transactions.buy_request_id is not null or transactions.withdraw_request_id is not null
    or transactions.sell_request_id is not null as settled
from public.transactions
left join public.profiles on profiles.id = transactions.user_id
left join public.second_approvals as proposal
  on proposal.target_table = 'transactions' and proposal.target_id = transactions.id
  and proposal.confirmed_at is null;
comment on view public.transactions_with_user is
  'Transactions with the person''s full name and e-mail, for the admin list. Security invoker: same rows as transactions.';
-- The queues: the limit, the expiry and whether it has passed, beside the current price.
create view public.buy_requests_with_user
with (security_invoker = true)
as
select
  buy_requests.id,
  buy_requests.user_id,
  buy_requests.cryptocurrency,
  buy_requests.amount,
  buy_requests.status,
  buy_requests.date,
  buy_requests.decided_at,
  buy_requests.decided_by,
  profiles.full_name,
  profiles.email,
  (select wallet_balances.available from public.wallet_balances
   where wallet_balances.user_id = buy_requests.user_id)
    + case when buy_requests.status = 'pending' and buy_requests.expires_at > now() then buy_requests.amount else 0 end
    as available,
  buy_requests.limit_price,
  buy_requests.expires_at,
  buy_requests.status = 'pending' and buy_requests.expires_at <= now() as expired,
  case when buy_requests.status = 'pending' then private.fresh_price(buy_requests.cryptocurrency) end as price,
  case when buy_requests.status = 'pending' then private.money_gate(buy_requests.user_id, 'buy') end
    as held_because,
  proposal.proposed_by,
  buy_requests.rejection_reason,
  buy_requests.recurring
from public.buy_requests
left join public.profiles on profiles.id = buy_requests.user_id
left join public.second_approvals as proposal
  on proposal.target_table = 'buy_requests' and proposal.target_id = buy_requests.id
  and proposal.confirmed_at is null;
comment on view public.buy_requests_with_user is
  'Buy requests with the person''s full name and e-mail, for the admin queue. Security invoker: same rows as buy_requests.';
create view public.withdraw_requests_with_user
with (security_invoker = true)
as
select
  withdraw_requests.id,
  withdraw_requests.user_id,
  withdraw_requests.amount,
  withdraw_requests.withdraw_method,
  withdraw_requests.status,
  withdraw_requests.date,
  withdraw_requests.decided_at,
  withdraw_requests.decided_by,
  profiles.full_name,
  profiles.email,
  (select wallet_balances.available from public.wallet_balances
   where wallet_balances.user_id = withdraw_requests.user_id) as available,
  case when withdraw_requests.status not in ('approved', 'rejected', 'cancelled')
    then private.money_gate(withdraw_requests.user_id, 'withdraw') end as held_because,
  proposal.proposed_by,
  withdraw_requests.rejection_reason
from public.withdraw_requests
left join public.profiles on profiles.id = withdraw_requests.user_id
left join public.second_approvals as proposal
  on proposal.target_table = 'withdraw_requests' and proposal.target_id = withdraw_requests.id
  and proposal.confirmed_at is null;
comment on view public.withdraw_requests_with_user is
  'Withdraw requests (without encrypted_data) with the person''s full name and e-mail, for the admin queue. '
  'Security invoker: same rows as withdraw_requests.';
revoke all on table public.transactions_with_user, public.buy_requests_with_user, public.withdraw_requests_with_user
  from anon, authenticated, service_role;
grant select on table public.transactions_with_user, public.buy_requests_with_user, public.withdraw_requests_with_user
  to authenticated, service_role;
comment on column public.transactions_with_user.settled is
  'The entry records an approved buy, sell or withdraw request: its status is final (set_transaction_status '
  'refuses it), so the list offers no change.';
comment on column public.transactions_with_user.available is
  'The person''s available balance now (wallet_balances.available), shown beside the transaction.';
comment on column public.buy_requests_with_user.available is
  'What an approval would take from: the person''s available balance now (wallet_balances.available) plus the '
  'amount this request reserves while it is pending and unexpired.';
comment on column public.buy_requests_with_user.rejection_reason is 'Why it was rejected (shown to the person).';
comment on column public.buy_requests_with_user.recurring is 'Placed by a run of the person''s recurring buy.';
comment on column public.withdraw_requests_with_user.rejection_reason is 'Why it was rejected (shown to the person).';
comment on column public.withdraw_requests_with_user.available is
  'The person''s available balance now (wallet_balances.available; open withdraw requests already reserved).';
comment on column public.buy_requests_with_user.limit_price is 'Most USD per coin the person accepts (null: no limit).';
comment on column public.buy_requests_with_user.expires_at is 'When the request expires.';
comment on column public.buy_requests_with_user.expired is 'Pending and past its expiry: it cannot be approved.';
comment on column public.buy_requests_with_user.price is
  'The current price (newest snapshot of the last 2 minutes) while pending, to set against the limit.';

create view public.sell_requests_with_user
with (security_invoker = true)
as
select
  sell_requests.id,
  sell_requests.user_id,
  sell_requests.cryptocurrency,
  sell_requests.quantity,
  sell_requests.status,
  sell_requests.date,
  sell_requests.decided_at,
  sell_requests.decided_by,
  profiles.full_name,
  profiles.email,
  coalesce(entry.price, case when sell_requests.status = 'pending' then private.fresh_price(sell_requests.cryptocurrency) end)
    as price,
  coalesce(
    entry.amount,
    case when sell_requests.status = 'pending'
      then trunc(sell_requests.quantity * private.fresh_price(sell_requests.cryptocurrency), 2)
    end
  ) as amount,
  (select holdings.quantity from public.holdings
   where holdings.user_id = sell_requests.user_id and holdings.cryptocurrency = sell_requests.cryptocurrency) as held,
  (select wallet_balances.available from public.wallet_balances
   where wallet_balances.user_id = sell_requests.user_id) as available,
  sell_requests.limit_price,
  sell_requests.expires_at,
  sell_requests.status = 'pending' and sell_requests.expires_at <= now() as expired,
  case when sell_requests.status = 'pending' then private.money_gate(sell_requests.user_id, 'sell') end
    as held_because,
  proposal.proposed_by,
  sell_requests.rejection_reason
from public.sell_requests
left join public.profiles on profiles.id = sell_requests.user_id
left join public.transactions as entry on entry.sell_request_id = sell_requests.id
left join public.second_approvals as proposal
  on proposal.target_table = 'sell_requests' and proposal.target_id = sell_requests.id
  and proposal.confirmed_at is null;
comment on view public.sell_requests_with_user is
  'Sell requests with the person''s full name and e-mail, for the admin queue. Security invoker: same rows as '
  'sell_requests.';
revoke all on table public.sell_requests_with_user from anon, authenticated, service_role;
grant select on table public.sell_requests_with_user to authenticated, service_role;
comment on column public.sell_requests_with_user.price is
  'USD per coin: the price an approved request filled at; for a pending one the current price (newest snapshot '
  'of the last 10 minutes, null without one); null for a rejected one.';
comment on column public.sell_requests_with_user.amount is
  'USD: what an approved request credited; for a pending one what approving would credit now (quantity × '
  'price, truncated to the cent).';
comment on column public.sell_requests_with_user.held is 'Coins of this kind the person holds now (holdings.quantity).';
comment on column public.sell_requests_with_user.available is
  'The person''s available USD balance now (wallet_balances.available).';
comment on column public.sell_requests_with_user.limit_price is 'Least USD per coin the person accepts (null: no limit).';
comment on column public.sell_requests_with_user.expires_at is 'When the request expires.';
comment on column public.sell_requests_with_user.rejection_reason is 'Why it was rejected (shown to the person).';
comment on column public.sell_requests_with_user.expired is
  'Pending and past its expiry: it cannot be approved and reserves nothing.';
create function private.account_restrictions(p_user_id uuid)
returns table (hold_until timestamptz, withdrawals_locked boolean, frozen boolean, two_factor boolean)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  -- Admins only: a person reads their own restrictions through my_money_restrictions.
  if not private.is_admin() then
    return;
  end if;
  return query select
    (select hold.hold_until from private.security_hold_until(p_user_id) as hold),
    exists (select from private.withdrawal_locks as withdrawal_lock where withdrawal_lock.user_id = p_user_id),
    private.is_frozen(p_user_id),
    exists (
      select from auth.mfa_factors as factor where factor.user_id = p_user_id and factor.status = 'verified'
    );
end;
$$;
comment on function private.account_restrictions(uuid) is
  'For admins (no row for anyone else): until when the person''s withdrawals are held, whether a "this '
  'wasn''t me" link locked them, whether the account is frozen and whether they have two-factor '
  'authentication, so the admin user list shows what a person meets before anyone acts.';
revoke execute on function private.account_restrictions(uuid) from public;
grant execute on function private.account_restrictions(uuid) to authenticated, service_role;
-- The balance and each restriction as scalar subqueries (see the top of this file): the list's count reads the
-- people alone, and a page calls account_restrictions for its own rows only, after the sort and limit.
create view public.users_with_balance with (security_invoker = true) as
select people.id, people.email, people.full_name, people.role, people.registration_date,
  (select wallet_balances.available from public.wallet_balances where wallet_balances.user_id = people.id)
    as available,
  (select restrictions.hold_until from private.account_restrictions(people.id) as restrictions) as hold_until,
  (select restrictions.withdrawals_locked from private.account_restrictions(people.id) as restrictions)
    as withdrawals_locked,
  (select restrictions.frozen from private.account_restrictions(people.id) as restrictions) as frozen,
  (select restrictions.two_factor from private.account_restrictions(people.id) as restrictions) as two_factor
-- Open accounts as a subquery, not the table itself, so the view stays read-only (not automatically updatable).
from (
  select profiles.id, profiles.email, profiles.full_name, profiles.role, profiles.registration_date
  from public.profiles
  where profiles.closed_at is null
) as people;
comment on view public.users_with_balance is
  'People with their available balance (from wallet_balances, the one place it is computed), for the admin '
  'user list. Security invoker: same rows as profiles.';
comment on column public.users_with_balance.hold_until is
  'Admins: until when the person''s withdrawals are held after a security change (null: no hold).';
comment on column public.users_with_balance.withdrawals_locked is
  'Admins: whether a "this wasn''t me" link locked the person''s withdrawals (null for anyone else).';
comment on column public.users_with_balance.frozen is 'Admins: whether the account is frozen now (null for anyone else).';
comment on column public.users_with_balance.two_factor is
  'Admins: whether the person has a verified two-factor method (null for anyone else).';
create view public.audit_log_with_actor
with (security_invoker = true)
as
select
  audit_log.id,
  audit_log.actor_id,
  audit_log.action,
  audit_log.target_table,
  audit_log.target_id,
  audit_log.details,
  audit_log.at,
  profiles.full_name as actor_name,
  profiles.email as actor_email
from public.audit_log
left join public.profiles on profiles.id = audit_log.actor_id;
comment on view public.audit_log_with_actor is
  'The audit log with the acting person''s name and e-mail (null once that person is deleted, or for the '
  'database operator). Security invoker: admins only, as audit_log.';
revoke all on table public.users_with_balance, public.audit_log_with_actor from anon, authenticated, service_role;
grant select on table public.users_with_balance, public.audit_log_with_actor to authenticated, service_role;
do $$
declare
  queue text;
begin
  foreach queue in array array[
    'buy_requests_with_user', 'sell_requests_with_user', 'withdraw_requests_with_user', 'transactions_with_user'
  ] loop
    execute format(
      'comment on column public.%I.held_because is %L', queue,
      'While open: why the money gate refuses its approval now (a lock or a security hold), in the admin''s '
        || 'words; null when it may be approved.'
    );
    execute format(
      'comment on column public.%I.proposed_by is %L', queue,
      'The admin whose approval awaits a second admin''s confirmation (second_approvals); null otherwise.'
    );
  end loop;
end;
$$;
