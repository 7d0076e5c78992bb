-- One argument style for every RPC: plain snake_case names, the JSON keys a client sends (docs/architecture.md,
-- "RPC arguments"). create_withdraw_request was the last one with p_-prefixed arguments; it is redefined with
-- plain names and otherwise unchanged. Its plain argument names would clash with the output columns of a
-- `returns table`, so it returns one row of a named composite type with the same columns as before: the
-- withdrawals function's answer is unchanged. Checks on new withdraw requests that need the caller's token
-- belong in BEFORE INSERT triggers on withdraw_requests, not here.

drop function public.create_withdraw_request(uuid, uuid, numeric, text, text, smallint, text, uuid);

create type public.created_withdraw_request as (
  id uuid,
  user_id uuid,
  amount numeric,
  withdraw_method public.withdraw_method,
  status text,
  date timestamptz
);
comment on type public.created_withdraw_request is
  'What create_withdraw_request answers: the created request without its encrypted details.';

create function public.create_withdraw_request(
  request_id uuid,
  user_id uuid,
  amount numeric,
  withdraw_method text,
  encrypted_data text,
  details_key_version smallint,
  details_digest text,
  idempotency_key uuid
) returns public.created_withdraw_request
language plpgsql
security definer
set search_path = ''
as $$
-- Arguments are named like the table's columns: inside queries an unqualified name is the column, and the
-- arguments are always written qualified (create_withdraw_request.amount).
#variable_conflict use_column
declare
  caller uuid := (select auth.uid());
  wallet public.wallet_balances;
  created public.withdraw_requests;
  answer public.created_withdraw_request;
  earlier jsonb;
begin
  if caller is null or create_withdraw_request.user_id is distinct from caller then
    raise exception 'A withdraw request can only be made by the signed-in person for themselves'
      using errcode = '42501';
  end if;
  perform private.assert_usd_amount(create_withdraw_request.amount);
  if create_withdraw_request.withdraw_method is null
    or create_withdraw_request.withdraw_method not in ('bank', 'card', 'wallet') then
    raise exception 'Withdraw method is required' using errcode = 'P0001';
  end if;
  if create_withdraw_request.request_id is null then
    raise exception 'Request id is required' using errcode = 'P0001';
  end if;
  if create_withdraw_request.encrypted_data is null or btrim(create_withdraw_request.encrypted_data) = ''
    or create_withdraw_request.details_key_version is null then
    raise exception 'Encrypted withdrawal details are required' using errcode = 'P0001';
  end if;

  earlier := private.replay_idempotent_call(
    create_withdraw_request.idempotency_key,
    'create_withdraw_request',
    jsonb_build_object(
      'amount', create_withdraw_request.amount,
      'method', create_withdraw_request.withdraw_method,
      'details_digest', create_withdraw_request.details_digest
    )
  );
  if earlier is not null then
    return jsonb_populate_record(null::public.created_withdraw_request, earlier);
  end if;

  perform private.assert_within_limits(create_withdraw_request.amount, 'withdrawal');
  wallet := private.lock_wallet(caller);
  if wallet.available - create_withdraw_request.amount < 0 then
    raise exception 'Insufficient balance (including all withdraw requests)' using errcode = 'P0001';
  end if;

  insert into public.withdraw_requests (id, user_id, amount, withdraw_method, encrypted_data, details_key_version)
  values (
    create_withdraw_request.request_id,
    caller,
    create_withdraw_request.amount,
    create_withdraw_request.withdraw_method::public.withdraw_method,
    create_withdraw_request.encrypted_data,
    create_withdraw_request.details_key_version
  )
  returning * into created;
  perform private.write_audit(
    'withdraw_request.create',
    'withdraw_requests',
    created.id,
    jsonb_build_object('user_id', caller, 'amount', created.amount, 'withdraw_method', created.withdraw_method)
  );
  answer := (created.id, created.user_id, created.amount, created.withdraw_method, created.status, created.date);
  perform private.remember_idempotent_response(create_withdraw_request.idempotency_key, to_jsonb(answer));
  return answer;
end;
$$;
comment on function public.create_withdraw_request(uuid, uuid, numeric, text, text, smallint, text, uuid) is
  'The signed-in person''s withdraw request (called by the withdrawals Edge Function with the person''s own '
  'token, after it validated and encrypted the form for this request id). Refuses a user id other than the '
  'caller''s; once per idempotency key; checks the limits and, under the person''s lock, the available balance. '
  'Returns the request without encrypted_data.';

revoke execute on function public.create_withdraw_request(uuid, uuid, numeric, text, text, smallint, text, uuid)
  from public, anon, authenticated, service_role;
grant execute on function public.create_withdraw_request(uuid, uuid, numeric, text, text, smallint, text, uuid)
  to authenticated;
