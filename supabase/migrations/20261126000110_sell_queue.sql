-- The admin sell queue: each request with the price it would fill at now (or filled at), the USD it would
-- credit now (or credited), the coins the person holds and their available USD balance, so the admin sees
-- what approving means before confirming; and the sell queue's count in the admin navigation.

create function private.fresh_price(p_cryptocurrency text) returns numeric
language sql
stable
set search_path = ''
as $$
  select price from public.price_snapshots
  where cryptocurrency = p_cryptocurrency and captured_at >= now() - interval '10 minutes'
  order by captured_at desc
  limit 1;
$$;
comment on function private.fresh_price(text) is
  'The coin''s newest snapshot price if recorded in the last 10 minutes (what private.current_price fills at), '
  'else null: for showing, where private.current_price would refuse.';
revoke execute on function private.fresh_price(text) from public;
grant execute on function private.fresh_price(text) to authenticated, service_role;

-- One reading of "current": the price an approval fills at is the one the queue shows.
create or replace function private.current_price(p_cryptocurrency text) returns numeric
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  current numeric := private.fresh_price(p_cryptocurrency);
begin
  if current is null then
    raise exception 'No current price for %: none was recorded in the last 10 minutes', p_cryptocurrency
      using errcode = 'P0001';
  end if;
  return current;
end;
$$;

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
   where wallet_balances.user_id = sell_requests.user_id) as available
from public.sell_requests
left join public.profiles on profiles.id = sell_requests.user_id
left join public.transactions as entry on entry.sell_request_id = sell_requests.id;
comment on column public.sell_requests_with_user.price is
  'USD per coin: the price an approved request filled at; for a pending one the current price (newest snapshot '
  'of the last 10 minutes, null without one); null for a rejected one.';
comment on column public.sell_requests_with_user.amount is
  'USD: what an approved request credited; for a pending one what approving would credit now (quantity × '
  'price, truncated to the cent).';
comment on column public.sell_requests_with_user.held is 'Coins of this kind the person holds now (holdings.quantity).';
comment on column public.sell_requests_with_user.available is
  'The person''s available USD balance now (wallet_balances.available).';

drop function public.admin_pending_counts();
create function public.admin_pending_counts()
returns table (buy_requests bigint, withdraw_requests bigint, sell_requests bigint)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  return query
  select
    (select count(*) from public.buy_requests where status = 'pending'),
    (select count(*) from public.withdraw_requests where status = 'pending'),
    (select count(*) from public.sell_requests where status = 'pending');
end;
$$;
comment on function public.admin_pending_counts() is
  'How many buy, withdraw and sell requests wait for a decision (status pending); admins only (42501 otherwise).';
revoke execute on function public.admin_pending_counts() from public, anon;
grant execute on function public.admin_pending_counts() to authenticated, service_role;
