-- Requests as orders, seen from the person's side. A pending buy reserves its USD from submission (as an open
-- withdrawal does; wallet_balances), a pending sell its coins (holdings); the owner may cancel any of their
-- pending requests, which releases what it reserved. Cancelled is final, like approved and rejected. The person's
-- lists read the views below: the limit, the expiry, and once approved the price it filled at and the quantity
-- (or USD) it moved, or once rejected the admin's reason.

create function public.cancel_request(kind text, request_id uuid, idempotency_key uuid default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  owner uuid;
  state text;
begin
  if kind is null or kind not in ('buy', 'sell', 'withdraw') then
    raise exception 'Unknown kind of request: %', kind using errcode = 'P0001';
  end if;
  if private.replay_idempotent_call(
    idempotency_key, 'cancel_request', jsonb_build_object('kind', kind, 'request_id', request_id)
  ) is not null then
    return;
  end if;
  -- The request first, then the person's lock: the order every money step takes.
  if kind = 'buy' then
    select user_id, status::text into owner, state from public.buy_requests where id = request_id for update;
  elsif kind = 'sell' then
    select user_id, status::text into owner, state from public.sell_requests where id = request_id for update;
  else
    select user_id, status into owner, state from public.withdraw_requests where id = request_id for update;
  end if;
  if owner is distinct from caller then
    raise exception 'Only the person who made a request can cancel it' using errcode = '42501';
  end if;
  perform private.assert_aal2_for_money(caller, (select auth.jwt()) ->> 'aal', 'cancel');
  perform private.assert_money_gate(caller, 'cancel', 'person');
  if state <> 'pending' then
    raise exception 'Only a pending request can be cancelled' using errcode = 'P0001';
  end if;
  perform private.lock_wallet(caller);

  if kind = 'buy' then
    update public.buy_requests set status = 'cancelled', decided_at = now(), decided_by = caller
    where id = request_id;
  elsif kind = 'sell' then
    update public.sell_requests set status = 'cancelled', decided_at = now(), decided_by = caller
    where id = request_id;
  else
    update public.withdraw_requests set status = 'cancelled', decided_at = now(), decided_by = caller
    where id = request_id;
  end if;
  perform private.write_audit(kind || '_request.cancel', kind || '_requests', request_id, jsonb_build_object('user_id', caller));
end;
$$;
comment on function public.cancel_request(text, uuid, uuid) is
  'The owner cancels their pending buy, sell or withdraw request (kind), once per idempotency key (required; a '
  'retry answers success again): what it reserved is free at once. Refused (42501) for anyone else, at aal1 for '
  'a person with a verified factor, during a lock (the money gate), and once the request is no longer pending.';
revoke execute on function public.cancel_request(text, uuid, uuid) from public, anon, authenticated, service_role;
grant execute on function public.cancel_request(text, uuid, uuid) to authenticated;

create view public.buy_requests_with_fill
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
  buy_requests.limit_price,
  buy_requests.expires_at,
  buy_requests.status = 'pending' and buy_requests.expires_at <= now() as expired,
  buy_requests.rejection_reason,
  entry.price as fill_price,
  entry.quantity
from public.buy_requests
left join public.transactions as entry on entry.buy_request_id = buy_requests.id;
comment on view public.buy_requests_with_fill is
  'The person''s buy requests with what an approval filled: their list. Security invoker: same rows as '
  'buy_requests (and the entry only when transactions lets the caller read it).';
comment on column public.buy_requests_with_fill.expired is 'Pending and past its expiry: it reserves nothing and cannot be approved.';
comment on column public.buy_requests_with_fill.fill_price is 'USD per coin the approval filled at (null until approved).';
comment on column public.buy_requests_with_fill.quantity is 'Coins received (null until approved).';

create view public.sell_requests_with_fill
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
  sell_requests.limit_price,
  sell_requests.expires_at,
  sell_requests.status = 'pending' and sell_requests.expires_at <= now() as expired,
  sell_requests.rejection_reason,
  entry.price as fill_price,
  entry.amount
from public.sell_requests
left join public.transactions as entry on entry.sell_request_id = sell_requests.id;
comment on view public.sell_requests_with_fill is
  'The person''s sell requests with what an approval filled: their list. Security invoker: same rows as '
  'sell_requests (and the entry only when transactions lets the caller read it).';
comment on column public.sell_requests_with_fill.expired is 'Pending and past its expiry: it reserves nothing and cannot be approved.';
comment on column public.sell_requests_with_fill.fill_price is 'USD per coin the approval filled at (null until approved).';
comment on column public.sell_requests_with_fill.amount is 'USD credited (null until approved).';

revoke all on table public.buy_requests_with_fill, public.sell_requests_with_fill from anon, authenticated, service_role;
grant select on table public.buy_requests_with_fill, public.sell_requests_with_fill to authenticated;

create function public.my_restrictions()
returns table (movement text, refusal text)
language sql
stable
security definer
set search_path = ''
as $$
  select movement, private.money_gate((select auth.uid()), movement, 'person')
  from unnest(array['buy', 'sell', 'withdraw']) as movement
  where (select auth.uid()) is not null
    -- A log-in left at the code step reads nothing of a factor holder's money, this included.
    and (coalesce((select auth.jwt()) ->> 'aal', '') = 'aal2' or not (select private.has_verified_factor()));
$$;
comment on function public.my_restrictions() is
  'What the caller cannot do now and why, in their words, before they fill a form: per movement (buy, sell, '
  'withdraw) the money gate''s refusal (a lock, a freeze, a security hold with its end), null when allowed. '
  'Only ever the caller''s own; nothing at aal1 for a person with a verified factor.';
revoke execute on function public.my_restrictions() from public, anon, authenticated, service_role;
grant execute on function public.my_restrictions() to authenticated;
