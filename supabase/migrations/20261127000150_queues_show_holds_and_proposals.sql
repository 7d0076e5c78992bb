-- The admin queues show, on each open row, what stops it (issue 26): `held_because`, the money gate's reason
-- in the admin's words (a lock, a security hold), when it cannot be approved; and `proposed_by`, the admin whose
-- approval waits for a second admin's confirmation. The app offers no Approve for a held row, nor to the
-- admin who proposed.

create or replace view public.buy_requests_with_user
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
   where wallet_balances.user_id = buy_requests.user_id) as available,
  buy_requests.limit_price,
  buy_requests.expires_at,
  buy_requests.status = 'pending' and buy_requests.expires_at <= now() as expired,
  case when buy_requests.status = 'pending' then private.fresh_price(buy_requests.cryptocurrency) end as price,
  case when buy_requests.status = 'pending' then private.money_gate(buy_requests.user_id, 'buy') end
    as held_because,
  proposal.proposed_by
from public.buy_requests
left join public.profiles on profiles.id = buy_requests.user_id
left join public.second_approvals as proposal
  on proposal.target_table = 'buy_requests' and proposal.target_id = buy_requests.id
  and proposal.confirmed_at is null;
comment on column public.buy_requests_with_user.price is
  'The current price (newest snapshot of the last 2 minutes) while pending, to set against the limit.';

create or replace view public.sell_requests_with_user
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
  proposal.proposed_by
from public.sell_requests
left join public.profiles on profiles.id = sell_requests.user_id
left join public.transactions as entry on entry.sell_request_id = sell_requests.id
left join public.second_approvals as proposal
  on proposal.target_table = 'sell_requests' and proposal.target_id = sell_requests.id
  and proposal.confirmed_at is null;

create or replace view public.withdraw_requests_with_user
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
  case when withdraw_requests.status not in ('approved', 'rejected')
    then private.money_gate(withdraw_requests.user_id, 'withdraw') end as held_because,
  proposal.proposed_by
from public.withdraw_requests
left join public.profiles on profiles.id = withdraw_requests.user_id
left join public.second_approvals as proposal
  on proposal.target_table = 'withdraw_requests' and proposal.target_id = withdraw_requests.id
  and proposal.confirmed_at is null;

create or replace view public.transactions_with_user
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
  proposal.proposed_by
from public.transactions
left join public.profiles on profiles.id = transactions.user_id
left join public.second_approvals as proposal
  on proposal.target_table = 'transactions' and proposal.target_id = transactions.id
  and proposal.confirmed_at is null;

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
