-- Holdings. Approving a buy request records the coin quantity bought at the server's current price (the
-- newest price snapshot of the coin, at most 10 minutes old), in the same locked step as the balance
-- check. A person's holdings per coin are derived from the ledger (bought - sold) by a view, never kept
-- in a second place that could drift.
--
-- Precision: quantity = USD amount / price, truncated (never rounded up: nobody gets more coin than they
-- paid for) to 18 decimal places, the finest unit of the common coins (ether's wei); the price is the
-- snapshot's exact numeric. Buy entries written before this change carry no quantity (their price was
-- never recorded) and count for nothing in the holdings; a fresh project has none.

alter table public.transactions add column quantity numeric, add column price numeric;
comment on column public.transactions.quantity is
  'Coins bought or sold (buy and sell entries): USD amount / price, truncated to 18 decimal places.';
comment on column public.transactions.price is 'USD per coin the entry was filled at (buy and sell entries).';
alter table public.transactions add constraint transactions_coin_fill check (
  case
    when type in ('deposit', 'withdraw') then quantity is null and price is null
    else (quantity is null) = (price is null) and (quantity is null or (quantity > 0 and price > 0))
  end
);
comment on constraint transactions_coin_fill on public.transactions is
  'Only buy and sell entries carry a quantity and a price, both positive, both or neither.';

create function private.current_price(p_cryptocurrency text) returns numeric
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  current numeric;
begin
  select price into current
  from public.price_snapshots
  where cryptocurrency = p_cryptocurrency and captured_at >= now() - interval '10 minutes'
  order by captured_at desc
  limit 1;
  if current is null then
    raise exception 'No current price for %: none was recorded in the last 10 minutes', p_cryptocurrency
      using errcode = 'P0001';
  end if;
  return current;
end;
$$;
comment on function private.current_price(text) is
  'The server''s current USD price of a coin (its newest snapshot); refuses one older than 10 minutes.';
revoke execute on function private.current_price(text) from public;

create function private.coin_quantity(p_amount numeric, p_price numeric) returns numeric
language sql
immutable
set search_path = ''
as $$
  -- Scale 20 before dividing, so the quotient is exact to the 18 places kept.
  select trunc(round(p_amount, 20) / p_price, 18);
$$;
comment on function private.coin_quantity(numeric, numeric) is
  'Coins a USD amount buys at a price: truncated to 18 decimal places.';

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

  wallet := private.lock_wallet(request.user_id);
  if wallet.available - request.amount < 0 then
    raise exception 'Insufficient balance' using errcode = 'P0001';
  end if;
  fill_price := private.current_price(request.cryptocurrency);
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
      'quantity', bought
    )
  );
end;
$$;
comment on function private.approve_buy_request(uuid) is
  'The decision behind public.approve_buy_request (called only with a claimed idempotency key): under the '
  'person''s lock, takes the amount from the balance (''Insufficient balance'' if the available balance would '
  'go negative) and records a complete buy entry with the quantity bought at the current price.';

-- Settled entries stay final with their quantity and price too.
create or replace function private.keep_settled_entries_final() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if (old.buy_request_id is not null or old.withdraw_request_id is not null)
    and (
      (new.user_id, new.type, new.amount, new.status, new.cryptocurrency, new.date, new.quantity, new.price)
        is distinct from
      (old.user_id, old.type, old.amount, old.status, old.cryptocurrency, old.date, old.quantity, old.price)
      -- Only "on delete set null" may touch the links (the request's person was deleted).
      or (new.buy_request_id is not null and new.buy_request_id is distinct from old.buy_request_id)
      or (new.withdraw_request_id is not null and new.withdraw_request_id is distinct from old.withdraw_request_id)
    )
  then
    raise exception 'Transactions of approved requests are final' using errcode = 'P0001';
  end if;
  return new;
end;
$$;

create index transactions_user_id_cryptocurrency_idx on public.transactions (user_id, cryptocurrency)
  include (type, amount, quantity)
  where type in ('buy', 'sell') and status = 'complete' and quantity is not null;
comment on index public.transactions_user_id_cryptocurrency_idx is
  'A person''s completed buy and sell entries per coin, covering what the holdings sum (index-only scans).';

create view public.holdings
with (security_invoker = true)
as
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
group by user_id, cryptocurrency;
comment on view public.holdings is
  'Coins a person holds, per coin, derived from the ledger: bought - sold. Security invoker: a person sees '
  'their own rows, an admin everyone''s.';
comment on column public.holdings.quantity is 'Coins held: bought - sold (complete entries).';
comment on column public.holdings.bought is 'Coins bought in all.';
comment on column public.holdings.sold is 'Coins sold in all.';
comment on column public.holdings.bought_for is 'USD paid for the coins bought.';
comment on column public.holdings.average_cost is 'USD per coin paid on average (bought_for / bought, 8 places).';
revoke all on table public.holdings from anon, authenticated, service_role;
grant select on table public.holdings to authenticated;
