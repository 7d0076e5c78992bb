-- Sell requests. A person asks to sell a quantity of a coin they hold (the app may take a USD value and
-- convert it to a quantity at the price it shows; the request always names the quantity). A pending sell
-- reserves its quantity as an open withdrawal reserves USD: a new sell beyond the holdings minus the
-- pending sells is refused. An admin approves or rejects it; approval credits USD at the server's current
-- price (private.current_price) as a complete `sell` entry carrying the quantity and the price.
--
-- Credit: quantity × price, truncated to the cent (never rounded up: we never credit more than the coins
-- are worth). A sale worth less than a cent is refused rather than credited as nothing.
-- Quantity: positive, at most 18 decimal places (the precision buy entries are recorded in).
-- Locks: creation and approval take the person's profile lock (private.lock_wallet), the one every money
-- step of theirs takes, so approvals and requests over the same holdings queue; the holdings are read in a
-- new statement after the lock, so they include every step committed before.

create table public.sell_requests (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete restrict,
  cryptocurrency text not null,
  quantity numeric not null,
  status public.request_status not null default 'pending',
  date timestamptz not null default now(),
  decided_at timestamptz,
  decided_by uuid references public.profiles (id) on delete set null,
  limit_price numeric,
  expires_at timestamptz not null default now() + interval '24 hours',
  rejection_reason text,
  constraint sell_requests_quantity_positive check (quantity > 0 and quantity = trunc(quantity, 18)),
  constraint sell_requests_cryptocurrency_not_blank check (btrim(cryptocurrency) <> '' and length(cryptocurrency) <= 100),
  constraint sell_requests_decision_recorded check ((status = 'pending') = (decided_at is null)),
  constraint sell_requests_limit_price_positive check (limit_price is null or limit_price > 0),
  constraint sell_requests_rejection_reason_shape check (private.is_rejection_reason_shape(status::text, rejection_reason))
);
comment on table public.sell_requests is
  'A person''s request to sell coins they hold for USD; pending (reserving its quantity) until an admin approves '
  'or rejects it.';
comment on column public.sell_requests.cryptocurrency is 'The coin''s market-data id (e.g. bitcoin), never its symbol.';
comment on column public.sell_requests.quantity is 'Coins to sell; positive, at most 18 decimal places.';
comment on column public.sell_requests.status is
  'pending until decided by approve_sell_request or reject_sell_request, or cancelled by its owner (cancel_request).';
comment on column public.sell_requests.rejection_reason is
  'Why the admin rejected it, shown to the person (1 to 500 characters).';
comment on column public.sell_requests.date is 'When the person asked.';
comment on column public.sell_requests.decided_at is 'When an admin approved or rejected the request.';
comment on column public.sell_requests.decided_by is 'The admin who decided.';
comment on column public.sell_requests.limit_price is
  'Least USD per coin the person accepts: approval is refused when the current price is below it (null: no limit).';
comment on column public.sell_requests.expires_at is
  'When the request expires (default 24 hours after it was made): a pending request past it cannot be approved '
  'and reserves nothing.';
create index sell_requests_user_id_date_idx on public.sell_requests (user_id, date desc);
comment on index public.sell_requests_user_id_date_idx is 'A person''s sell requests, newest first.';
create index sell_requests_date_idx on public.sell_requests (date desc);
comment on index public.sell_requests_date_idx is 'The admin sell request queue, newest first.';
create index sell_requests_status_date_idx on public.sell_requests (status, date desc);
comment on index public.sell_requests_status_date_idx is 'Requests by status (the pending queue), newest first.';
create index sell_requests_pending_idx on public.sell_requests (user_id, cryptocurrency)
  include (quantity) where status = 'pending';
comment on index public.sell_requests_pending_idx is 'The quantity a person''s pending sells reserve, per coin.';
create index sell_requests_decided_by_idx on public.sell_requests (decided_by);
comment on index public.sell_requests_decided_by_idx is 'Supports the foreign key when an admin is deleted.';
alter table public.sell_requests enable row level security;
-- Live: the admin queue and the person's wallet (RLS decides who receives a change).
alter table public.sell_requests replica identity full;
alter publication supabase_realtime add table public.sell_requests;
revoke all on table public.sell_requests from anon, authenticated, service_role;
-- No writes: people create through create_sell_request, admins decide through the keyed RPCs.
grant select on table public.sell_requests to authenticated, service_role;
create policy "People can read their own sell requests and admins can read all"
  on public.sell_requests for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));
comment on policy "People can read their own sell requests and admins can read all" on public.sell_requests is
  'Own rows for people; the whole queue for admins.';
create policy "Sell requests are read at aal2 or own ones without a factor"
  on public.sell_requests as restrictive for select to authenticated
  using (
    (select coalesce(((select auth.jwt()) ->> 'aal') = 'aal2', false))
    or (user_id = (select auth.uid()) and not (select private.has_verified_factor()))
  );
comment on policy "Sell requests are read at aal2 or own ones without a factor" on public.sell_requests is
  'Other people''s sell requests only at aal2 (admins), and a person with a verified factor reads their own '
  'only at aal2 too: a log-in left at the code step reads none.';
create trigger keep_decided_requests_final_before_update
  before update on public.sell_requests
  for each row execute function private.keep_decided_requests_final();
comment on trigger keep_decided_requests_final_before_update on public.sell_requests is
  'Approved and rejected sell requests are final for every writer.';
-- The ledger entry of an approved sell names its request and is final like a buy's.
alter table public.transactions
  add constraint transactions_sell_request_id_fkey
    foreign key (sell_request_id) references public.sell_requests (id) on delete set null;
-- A person's holdings per coin, derived from the ledger (bought - sold), never kept in a second place that
-- could drift; pending sells reserve coins until they are decided or expire.
create view public.holdings
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
comment on column public.holdings.reserved is 'Coins reserved by pending sell requests that have not expired.';
comment on column public.holdings.available is 'Coins that a new sell request may still name: quantity - reserved.';
create function private.held_quantity(p_user_id uuid, p_cryptocurrency text)
returns table (quantity numeric, available numeric)
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(max(holdings.quantity), 0), coalesce(max(holdings.available), 0)
  from public.holdings
  where holdings.user_id = p_user_id and holdings.cryptocurrency = p_cryptocurrency;
$$;
comment on function private.held_quantity(uuid, text) is
  'A person''s coins of one kind: held, and available to a new sell request (0 and 0 when none). Read it after '
  'private.lock_wallet, so no other money step of theirs can change it meanwhile.';
revoke execute on function private.held_quantity(uuid, text) from public;
create function private.validate_sell_request() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.cryptocurrency is null or btrim(new.cryptocurrency) = '' then
    raise exception 'Please select a cryptocurrency' using errcode = 'P0001';
  end if;
  if new.quantity is null or new.quantity <= 0 then
    raise exception 'Quantity must be greater than 0' using errcode = 'P0001';
  end if;
  if new.quantity <> trunc(new.quantity, 18) then
    raise exception 'Quantity can have at most 18 decimal places' using errcode = 'P0001';
  end if;
  return new;
end;
$$;
comment on function private.validate_sell_request() is
  'Refuses a new sell request without a coin or with a quantity that is not positive with at most 18 decimals, '
  'with clear texts before the check constraints.';
revoke execute on function private.validate_sell_request() from public;
create trigger validate_sell_request_before_insert
  before insert on public.sell_requests
  for each row execute function private.validate_sell_request();
comment on trigger validate_sell_request_before_insert on public.sell_requests is
  'Coin and quantity checks for every new sell request.';
create function private.approve_sell_request(request_id uuid) returns void
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
  perform private.assert_not_own_account(request.user_id);
  perform private.assert_money_gate(request.user_id, 'sell', 'admin');
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
  if private.awaits_second_admin('sell_requests', request.id, credit) then
    return;
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
revoke execute on function private.approve_sell_request(uuid) from public, anon, authenticated, service_role;
create function private.reject_sell_request(request_id uuid, reason text) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  request public.sell_requests;
  given text := private.assert_rejection_reason(reason);
begin
  perform private.assert_admin();
  select * into request from public.sell_requests where id = request_id for update;
  if not found then
    raise exception 'Sell request not found' using errcode = 'P0001';
  end if;
  if request.status <> 'pending' then
    raise exception 'Request has already been decided' using errcode = 'P0001';
  end if;
  perform private.assert_not_own_account(request.user_id);

  update public.sell_requests
    set status = 'rejected', decided_at = now(), decided_by = (select auth.uid()), rejection_reason = given
    where id = request.id;
  perform private.write_audit(
    'sell_request.reject',
    'sell_requests',
    request.id,
    jsonb_build_object(
      'user_id', request.user_id,
      'cryptocurrency', request.cryptocurrency,
      'quantity', request.quantity,
      'reason', given
    )
  );
end;
$$;
comment on function private.reject_sell_request(uuid, text) is
  'The decision behind public.reject_sell_request (called only with a claimed idempotency key): records the '
  'reason and frees the reserved quantity; no money moves.';
revoke execute on function private.reject_sell_request(uuid, text) from public, anon, authenticated, service_role;
create function public.approve_sell_request(request_id uuid, idempotency_key uuid default null) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  if private.replay_idempotent_call(idempotency_key, 'approve_sell_request', jsonb_build_object('request_id', request_id))
    is null
  then
    perform private.approve_sell_request(request_id);
  end if;
end;
$$;
comment on function public.approve_sell_request(uuid, uuid) is
  'Admin only. Approves a pending sell request once per idempotency key (required): credits its coins at the '
  'current price; a retried approval answers success again.';
create function public.reject_sell_request(
  request_id uuid,
  idempotency_key uuid default null,
  reason text default null
) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  if private.replay_idempotent_call(
    idempotency_key,
    'reject_sell_request',
    jsonb_build_object('request_id', request_id, 'reason', private.assert_rejection_reason(reason))
  ) is null then
    perform private.reject_sell_request(request_id, reason);
  end if;
end;
$$;
comment on function public.reject_sell_request(uuid, uuid, text) is
  'Admin only. Rejects a pending sell request once per idempotency key (required), with the reason the person '
  'is shown; a retried rejection answers success again.';
revoke execute on function public.approve_sell_request(uuid, uuid) from public, anon, authenticated, service_role;
grant execute on function public.approve_sell_request(uuid, uuid) to authenticated;
revoke execute on function public.reject_sell_request(uuid, uuid, text) from public, anon, authenticated, service_role;
grant execute on function public.reject_sell_request(uuid, uuid, text) to authenticated;
create function private.notify_sell_decision() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  credit numeric := (select amount from public.transactions where sell_request_id = new.id);
begin
  perform private.notify(
    new.user_id,
    'sell_request.' || new.status::text,
    'Sell request ' || new.status::text,
    format('Your request to sell %s %s was %s', trim_scale(new.quantity), initcap(new.cryptocurrency), new.status)
      || case when credit is null then '.' else format(': $%s was added to your balance.', private.format_usd(credit)) end
      || case when new.rejection_reason is null then '' else ' Reason: ' || new.rejection_reason end
  );
  return null;
end;
$$;
comment on function private.notify_sell_decision() is
  'Tells the person their sell request was approved (with the USD credited) or rejected (with the admin''s reason).';
revoke execute on function private.notify_sell_decision() from public;
create trigger notify_decision_after_update
  after update of status on public.sell_requests
  for each row when (old.status is distinct from new.status and new.status in ('approved', 'rejected'))
  execute function private.notify_sell_decision();
comment on trigger notify_decision_after_update on public.sell_requests is 'A decided sell request is notified.';
create trigger require_aal2_before_insert
  before insert on public.sell_requests
  for each row execute function private.require_aal2_for_money_request('sell');
comment on trigger require_aal2_before_insert on public.sell_requests is
  'Step-up: two-factor people ask to sell only from an aal2 session.';
create trigger consult_money_gate_before_insert
  before insert on public.sell_requests
  for each row execute function private.consult_money_gate_for_request('sell');
comment on trigger consult_money_gate_before_insert on public.sell_requests is
  'A locked person cannot ask to sell.';
