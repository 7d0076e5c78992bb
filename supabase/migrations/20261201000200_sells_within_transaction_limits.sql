-- A sell's value at the fresh price must be within the transaction limits, as a buy's amount is (a 3.37 USD
-- sale was accepted under the 10 USD minimum).
create or replace function public.create_sell_request(
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
