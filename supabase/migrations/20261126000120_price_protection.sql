-- Price-protected requests. A buy or sell request carries a limit price and an expiry:
--   - limit_price: USD per coin. A buy fills only at or below it, a sell only at or above it; approval is
--     refused in SQL with the price and the limit named otherwise. The app sends the price it shows ± the
--     tolerance the person picks (1 %, 2 % or 5 %, 2 % by default). Null means no limit: callers that send
--     none (older clients, the operator) keep the earlier behaviour.
--   - expires_at: by default 24 hours after the request; at most 30 days ahead. A request past its expiry
--     cannot be approved (it can still be rejected, which closes it).
-- "Expired" is derived, not stored: a request is expired when it is pending and its expiry has passed. The
-- status vocabulary stays pending, approved, rejected (no job has to flip rows at the right moment, and
-- no decision races with one); the views say `expired` and the app shows it. An expired sell reserves
-- nothing: the holdings count only pending sells that have not expired.

alter table public.buy_requests
  add column limit_price numeric,
  add column expires_at timestamptz not null default now() + interval '24 hours',
  add constraint buy_requests_limit_price_positive check (limit_price is null or limit_price > 0);
comment on column public.buy_requests.limit_price is
  'Most USD per coin the person accepts: approval is refused when the current price is above it (null: no limit).';
comment on column public.buy_requests.expires_at is
  'When the request expires (default 24 hours after it was made): a pending request past it cannot be approved.';

alter table public.sell_requests
  add column limit_price numeric,
  add column expires_at timestamptz not null default now() + interval '24 hours',
  add constraint sell_requests_limit_price_positive check (limit_price is null or limit_price > 0);
comment on column public.sell_requests.limit_price is
  'Least USD per coin the person accepts: approval is refused when the current price is below it (null: no limit).';
comment on column public.sell_requests.expires_at is
  'When the request expires (default 24 hours after it was made): a pending request past it cannot be approved '
  'and reserves nothing.';

create function private.assert_price_protection(p_limit_price numeric, p_expires_at timestamptz) returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if p_limit_price is not null and p_limit_price <= 0 then
    raise exception 'Limit price must be greater than 0' using errcode = 'P0001';
  end if;
  if p_expires_at is not null and p_expires_at <= now() then
    raise exception 'Expiry must be in the future' using errcode = 'P0001';
  end if;
  if p_expires_at is not null and p_expires_at > now() + interval '30 days' then
    raise exception 'Expiry can be at most 30 days ahead' using errcode = 'P0001';
  end if;
end;
$$;
comment on function private.assert_price_protection(numeric, timestamptz) is
  'Refuses a limit price that is not positive and an expiry that is not in the next 30 days, with clear texts.';
revoke execute on function private.assert_price_protection(numeric, timestamptz) from public;

create function private.assert_fillable(
  p_kind text,
  p_cryptocurrency text,
  p_expires_at timestamptz,
  p_limit_price numeric,
  p_price numeric
) returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if p_expires_at <= now() then
    raise exception 'This request expired at % UTC and cannot be approved',
      to_char(p_expires_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') using errcode = 'P0001';
  end if;
  if p_price is null or p_limit_price is null then
    return;
  end if;
  if p_kind = 'buy' and p_price > p_limit_price then
    raise exception 'The price of % is $% now, above this request''s limit of $%',
      p_cryptocurrency, p_price, p_limit_price using errcode = 'P0001';
  end if;
  if p_kind = 'sell' and p_price < p_limit_price then
    raise exception 'The price of % is $% now, below this request''s limit of $%',
      p_cryptocurrency, p_price, p_limit_price using errcode = 'P0001';
  end if;
end;
$$;
comment on function private.assert_fillable(text, text, timestamptz, numeric, numeric) is
  'Refuses to approve an expired request (p_price null: the expiry alone), and a buy above or a sell below its '
  'limit price at the current price.';
revoke execute on function private.assert_fillable(text, text, timestamptz, numeric, numeric) from public;

-- Creation: the same RPCs with the limit and the expiry (both optional), so older callers keep working.
drop function public.create_buy_request(text, numeric, uuid);
create function public.create_buy_request(
  cryptocurrency text,
  amount numeric,
  idempotency_key uuid default null,
  limit_price numeric default null,
  expires_at timestamptz default null
)
returns public.buy_requests
language plpgsql
security definer
set search_path = ''
as $$
declare
  earlier jsonb;
  created public.buy_requests;
begin
  earlier := private.replay_idempotent_call(
    idempotency_key,
    'create_buy_request',
    jsonb_build_object(
      'cryptocurrency', cryptocurrency, 'amount', amount, 'limit_price', limit_price, 'expires_at', expires_at
    )
  );
  if earlier is not null then
    return jsonb_populate_record(null::public.buy_requests, earlier);
  end if;
  perform private.assert_price_protection(create_buy_request.limit_price, create_buy_request.expires_at);
  -- Pending, for the caller; the trigger checks the amount and the limits.
  insert into public.buy_requests (user_id, cryptocurrency, amount, limit_price, expires_at)
  values (
    (select auth.uid()),
    create_buy_request.cryptocurrency,
    create_buy_request.amount,
    create_buy_request.limit_price,
    coalesce(create_buy_request.expires_at, now() + interval '24 hours')
  )
  returning * into created;
  perform private.remember_idempotent_response(idempotency_key, to_jsonb(created));
  return created;
end;
$$;
comment on function public.create_buy_request(text, numeric, uuid, numeric, timestamptz) is
  'A signed-in person''s pending buy request, once per idempotency key (required; a repeat returns the request '
  'it created), with an optional limit price (most USD per coin) and expiry (default 24 hours). Amount and '
  'limits are checked by the table''s trigger.';
revoke execute on function public.create_buy_request(text, numeric, uuid, numeric, timestamptz)
  from public, anon, authenticated, service_role;
grant execute on function public.create_buy_request(text, numeric, uuid, numeric, timestamptz) to authenticated;

drop function public.create_sell_request(text, numeric, uuid);
create function public.create_sell_request(
  cryptocurrency text,
  quantity numeric,
  idempotency_key uuid default null,
  limit_price numeric default null,
  expires_at timestamptz default null
)
returns public.sell_requests
language plpgsql
security definer
set search_path = ''
as $$
declare
  earlier jsonb;
  held record;
  created public.sell_requests;
begin
  earlier := private.replay_idempotent_call(
    idempotency_key,
    'create_sell_request',
    jsonb_build_object(
      'cryptocurrency', cryptocurrency, 'quantity', quantity, 'limit_price', limit_price, 'expires_at', expires_at
    )
  );
  if earlier is not null then
    return jsonb_populate_record(null::public.sell_requests, earlier);
  end if;
  -- The coin and quantity texts first (the insert's trigger says them too), then the reservation.
  if create_sell_request.cryptocurrency is null or btrim(create_sell_request.cryptocurrency) = '' then
    raise exception 'Please select a cryptocurrency' using errcode = 'P0001';
  end if;
  if create_sell_request.quantity is null or create_sell_request.quantity <= 0 then
    raise exception 'Quantity must be greater than 0' using errcode = 'P0001';
  end if;
  perform private.assert_price_protection(create_sell_request.limit_price, create_sell_request.expires_at);

  perform private.lock_wallet((select auth.uid()));
  select * into held from private.held_quantity((select auth.uid()), create_sell_request.cryptocurrency);
  if held.available < create_sell_request.quantity then
    raise exception 'Insufficient % (including all sell requests)', create_sell_request.cryptocurrency
      using errcode = 'P0001';
  end if;

  insert into public.sell_requests (user_id, cryptocurrency, quantity, limit_price, expires_at)
  values (
    (select auth.uid()),
    create_sell_request.cryptocurrency,
    create_sell_request.quantity,
    create_sell_request.limit_price,
    coalesce(create_sell_request.expires_at, now() + interval '24 hours')
  )
  returning * into created;
  perform private.write_audit(
    'sell_request.create',
    'sell_requests',
    created.id,
    jsonb_build_object(
      'user_id', created.user_id,
      'cryptocurrency', created.cryptocurrency,
      'quantity', created.quantity,
      'limit_price', created.limit_price,
      'expires_at', created.expires_at
    )
  );
  perform private.remember_idempotent_response(idempotency_key, to_jsonb(created));
  return created;
end;
$$;
comment on function public.create_sell_request(text, numeric, uuid, numeric, timestamptz) is
  'A signed-in person''s pending sell request, once per idempotency key (required; a repeat returns the request '
  'it created), with an optional limit price (least USD per coin) and expiry (default 24 hours). Under the '
  'person''s lock, refused with ''Insufficient <coin> (including all sell requests)'' when the quantity is more '
  'than they hold minus what their unexpired pending sells reserve.';
revoke execute on function public.create_sell_request(text, numeric, uuid, numeric, timestamptz)
  from public, anon, authenticated, service_role;
grant execute on function public.create_sell_request(text, numeric, uuid, numeric, timestamptz) to authenticated;

-- Approval: expired first, then the balance or the holdings, then the current price against the limit.
create or replace function private.approve_buy_request(request_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  request public.buy_requests;
  wallet public.wallet_balances;
  fill_price numeric;
  bought numeric;
begin
  perform private.assert_admin();
  select * into request from public.buy_requests where id = request_id for update;
  if not found then
    raise exception 'Buy request not found' using errcode = 'P0001';
  end if;
  if request.status <> 'pending' then
    raise exception 'Request has already been decided' using errcode = 'P0001';
  end if;
  perform private.assert_fillable('buy', request.cryptocurrency, request.expires_at, request.limit_price, null);

  wallet := private.lock_wallet(request.user_id);
  if wallet.available - request.amount < 0 then
    raise exception 'Insufficient balance' using errcode = 'P0001';
  end if;
  fill_price := private.current_price(request.cryptocurrency);
  perform private.assert_fillable('buy', request.cryptocurrency, request.expires_at, request.limit_price, fill_price);
  bought := private.coin_quantity(request.amount, fill_price);

  insert into public.transactions (user_id, type, amount, status, cryptocurrency, buy_request_id, quantity, price)
  values (request.user_id, 'buy', request.amount, 'complete', request.cryptocurrency, request.id, bought, fill_price);
  update public.buy_requests
    set status = 'approved', decided_at = now(), decided_by = (select auth.uid())
    where id = request.id;
  perform private.write_audit(
    'buy_request.approve',
    'buy_requests',
    request.id,
    jsonb_build_object(
      'user_id', request.user_id,
      'amount', request.amount,
      'cryptocurrency', request.cryptocurrency,
      'price', fill_price,
      'limit_price', request.limit_price,
      'quantity', bought
    )
  );
end;
$$;
comment on function private.approve_buy_request(uuid) is
  'The decision behind public.approve_buy_request (called only with a claimed idempotency key): refuses an '
  'expired request; under the person''s lock, takes the amount from the balance (''Insufficient balance'' if the '
  'available balance would go negative) and records a complete buy entry with the quantity bought at the current '
  'price, refused when that price is above the request''s limit.';

create or replace function private.approve_sell_request(request_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  request public.sell_requests;
  held record;
  fill_price numeric;
  credit numeric;
begin
  perform private.assert_admin();
  select * into request from public.sell_requests where id = request_id for update;
  if not found then
    raise exception 'Sell request not found' using errcode = 'P0001';
  end if;
  if request.status <> 'pending' then
    raise exception 'Request has already been decided' using errcode = 'P0001';
  end if;
  perform private.assert_fillable('sell', request.cryptocurrency, request.expires_at, request.limit_price, null);

  perform private.lock_wallet(request.user_id);
  select * into held from private.held_quantity(request.user_id, request.cryptocurrency);
  if held.quantity < request.quantity then
    raise exception 'Insufficient %', request.cryptocurrency using errcode = 'P0001';
  end if;
  fill_price := private.current_price(request.cryptocurrency);
  perform private.assert_fillable('sell', request.cryptocurrency, request.expires_at, request.limit_price, fill_price);
  credit := trunc(request.quantity * fill_price, 2);
  if credit < 0.01 then
    raise exception 'This sale is worth less than $0.01 at the current price' using errcode = 'P0001';
  end if;

  insert into public.transactions (user_id, type, amount, status, cryptocurrency, sell_request_id, quantity, price)
  values (request.user_id, 'sell', credit, 'complete', request.cryptocurrency, request.id, request.quantity, fill_price);
  update public.sell_requests
    set status = 'approved', decided_at = now(), decided_by = (select auth.uid())
    where id = request.id;
  perform private.write_audit(
    'sell_request.approve',
    'sell_requests',
    request.id,
    jsonb_build_object(
      'user_id', request.user_id,
      'cryptocurrency', request.cryptocurrency,
      'quantity', request.quantity,
      'price', fill_price,
      'limit_price', request.limit_price,
      'amount', credit
    )
  );
end;
$$;
comment on function private.approve_sell_request(uuid) is
  'The decision behind public.approve_sell_request (called only with a claimed idempotency key): refuses an '
  'expired request; under the person''s lock, refuses to sell more than they hold (''Insufficient <coin>'') and '
  'records a complete sell entry crediting quantity × the current price, truncated to the cent, refused when that '
  'price is below the request''s limit.';

-- An expired sell reserves nothing.
create or replace view public.holdings
with (security_invoker = true)
as
select
  ledger.user_id,
  ledger.cryptocurrency,
  ledger.quantity,
  ledger.bought,
  ledger.sold,
  ledger.bought_for,
  ledger.average_cost,
  coalesce(open_sells.reserved, 0) as reserved,
  ledger.quantity - coalesce(open_sells.reserved, 0) as available
from (
  select
    user_id,
    cryptocurrency,
    sum(case when type = 'buy' then quantity else -quantity end) as quantity,
    sum(quantity) filter (where type = 'buy') as bought,
    coalesce(sum(quantity) filter (where type = 'sell'), 0) as sold,
    sum(amount) filter (where type = 'buy') as bought_for,
    round(sum(amount) filter (where type = 'buy') / sum(quantity) filter (where type = 'buy'), 8) as average_cost
  from public.transactions
  where type in ('buy', 'sell') and status = 'complete' and quantity is not null
  group by user_id, cryptocurrency
) as ledger
left join lateral (
  select sum(sell_requests.quantity) as reserved
  from public.sell_requests
  where sell_requests.user_id = ledger.user_id
    and sell_requests.cryptocurrency = ledger.cryptocurrency
    and sell_requests.status = 'pending'
    and sell_requests.expires_at > now()
) as open_sells on true;
comment on column public.holdings.reserved is 'Coins reserved by pending sell requests that have not expired.';

-- The queues: the limit, the expiry and whether it has passed, beside the current price.
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
  case when buy_requests.status = 'pending' then private.fresh_price(buy_requests.cryptocurrency) end as price
from public.buy_requests
left join public.profiles on profiles.id = buy_requests.user_id;
comment on column public.buy_requests_with_user.limit_price is 'Most USD per coin the person accepts (null: no limit).';
comment on column public.buy_requests_with_user.expires_at is 'When the request expires.';
comment on column public.buy_requests_with_user.expired is 'Pending and past its expiry: it cannot be approved.';
comment on column public.buy_requests_with_user.price is
  'The current price (newest snapshot of the last 10 minutes) while pending, to set against the limit.';

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
  sell_requests.status = 'pending' and sell_requests.expires_at <= now() as expired
from public.sell_requests
left join public.profiles on profiles.id = sell_requests.user_id
left join public.transactions as entry on entry.sell_request_id = sell_requests.id;
comment on column public.sell_requests_with_user.limit_price is 'Least USD per coin the person accepts (null: no limit).';
comment on column public.sell_requests_with_user.expires_at is 'When the request expires.';
comment on column public.sell_requests_with_user.expired is
  'Pending and past its expiry: it cannot be approved and reserves nothing.';
