-- Price-protected requests. A buy or sell request carries a limit price and an expiry:
--   - limit_price: USD per coin. A buy fills only at or below it, a sell only at or above it; approval is
--     refused in SQL with the price and the limit named otherwise. The app sends the price it shows ± the
--     tolerance the person picks (1 %, 2 % or 5 %, 2 % by default). Null means no limit (a caller that sends
--     none, such as the operator).
--   - expires_at: by default 24 hours after the request; at most 30 days ahead. A request past its expiry
--     cannot be approved (it can still be rejected, which closes it).
-- "Expired" is derived, not stored: a request is expired when it is pending and its expiry has passed. The
-- status vocabulary stays pending, approved, rejected (no job has to flip rows at the right moment, and
-- no decision races with one); the views say `expired` and the app shows it. An expired sell reserves
-- nothing: the holdings count only pending sells that have not expired.

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
create function private.place_buy_request(
  p_user_id uuid,
  p_cryptocurrency text,
  p_amount numeric,
  p_limit_price numeric,
  p_expires_at timestamptz
)
returns public.buy_requests
language plpgsql
security definer
set search_path = ''
as $$
declare
  created public.buy_requests;
  left_over numeric;
begin
  -- Under the person's lock, as a withdrawal: the request reserves its amount the moment it exists, so two
  -- buys submitted at once (or a person's and a schedule's) cannot both count on the same dollars.
  perform private.lock_wallet(p_user_id);
  -- Pending; the triggers check the amount, the limits, the step-up and the money gate.
  insert into public.buy_requests (user_id, cryptocurrency, amount, limit_price, expires_at)
  values (p_user_id, p_cryptocurrency, p_amount, p_limit_price, coalesce(p_expires_at, now() + interval '24 hours'))
  returning * into created;
  select available into left_over from public.wallet_balances where user_id = created.user_id;
  if left_over < 0 then
    raise exception 'Insufficient balance (including all pending requests)' using errcode = 'P0001';
  end if;
  perform private.write_audit(
    'buy_request.create',
    'buy_requests',
    created.id,
    jsonb_build_object(
      'user_id', created.user_id,
      'cryptocurrency', created.cryptocurrency,
      'amount', created.amount,
      'limit_price', created.limit_price,
      'expires_at', created.expires_at
    )
  );
  return created;
end;
$$;
comment on function private.place_buy_request(uuid, text, numeric, numeric, timestamptz) is
  'A person''s pending buy request (create_buy_request; a recurring buy''s runs make theirs together with the '
  'same checks, private.run_recurring_occurrences): under the person''s lock it reserves the amount, refused '
  'with ''Insufficient balance (including all pending requests)'' when the available balance does not cover it; '
  'the table''s triggers check the amount, the limits, the step-up and the money gate. Expiry defaults to 24 hours.';
revoke execute on function private.place_buy_request(uuid, text, numeric, numeric, timestamptz) from public;
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
  created := private.place_buy_request(
    (select auth.uid()),
    create_buy_request.cryptocurrency,
    create_buy_request.amount,
    create_buy_request.limit_price,
    create_buy_request.expires_at
  );
  perform private.remember_idempotent_response(idempotency_key, to_jsonb(created));
  return created;
end;
$$;
comment on function public.create_buy_request(text, numeric, uuid, numeric, timestamptz) is
  'A signed-in person''s pending buy request, once per idempotency key (required; a repeat returns the request '
  'it created), with an optional limit price (most USD per coin) and expiry (default 24 hours). It reserves its '
  'amount at once: under the person''s lock, refused with ''Insufficient balance (including all pending '
  'requests)'' when the available balance (after open withdrawals and pending buys) does not cover it. Amount '
  'and limits are checked by the table''s trigger.';
revoke execute on function public.create_buy_request(text, numeric, uuid, numeric, timestamptz)
  from public, anon, authenticated, service_role;
grant execute on function public.create_buy_request(text, numeric, uuid, numeric, timestamptz) to authenticated;
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
  perform private.assert_aal2_for_money((select auth.uid()), (select auth.jwt()) ->> 'aal', 'sell');
  perform private.assert_money_gate((select auth.uid()), 'sell', 'person');
  -- The coin and quantity texts first (the insert's trigger says them too), then the reservation.
  if create_sell_request.cryptocurrency is null or btrim(create_sell_request.cryptocurrency) = '' then
    raise exception 'Please select a cryptocurrency' using errcode = 'P0001';
  end if;
  if create_sell_request.quantity is null or create_sell_request.quantity <= 0 then
    raise exception 'Quantity must be greater than 0' using errcode = 'P0001';
  end if;
  perform private.assert_price_protection(create_sell_request.limit_price, create_sell_request.expires_at);
  -- A sale is a transaction like a buy: its value at the price now, to the cent (a USD value typed in the
  -- form becomes a quantity cut to 8 places), must be within the limits. Without a fresh price the value is
  -- unknown (null passes) and approval refuses anyway, as it needs the current price.
  perform private.assert_within_limits(
    round(create_sell_request.quantity * private.fresh_price(create_sell_request.cryptocurrency), 2), 'transaction'
  );

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
  'than they hold minus what their unexpired pending sells reserve, and with the limits'' ''Minimum/Maximum '
  'transaction amount is $X'' when its value at the fresh price is outside them.';
revoke execute on function public.create_sell_request(text, numeric, uuid, numeric, timestamptz)
  from public, anon, authenticated, service_role;
grant execute on function public.create_sell_request(text, numeric, uuid, numeric, timestamptz) to authenticated;
