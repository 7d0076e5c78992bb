-- Withdraw requests are created for the caller the database authenticated, never for a user id it was
-- handed: create_withdraw_request now runs as the signed-in person (the withdrawals function forwards the
-- person's own token) and refuses a p_user_id that is not theirs; the audit log names that person. The
-- service role, which acts for nobody, can no longer create withdrawals at all.
--
-- The function chooses the request id before it encrypts, so the details' additional authenticated
-- data can name the request id, the user id, the method and the key version; the database stores the
-- key version beside the blob. Rows written before this migration have no key version: their details
-- were sealed without that binding (see withdrawal-details for how they are read).
--
-- Idempotent as the other money steps (see the idempotency migration): the key's content is the amount,
-- the method and a keyed digest of the details (computed by the function; the database never sees them).

alter table public.withdraw_requests add column details_key_version smallint;
comment on column public.withdraw_requests.details_key_version is
  'Version of the master key that sealed encrypted_data, bound into its additional authenticated data with the '
  'request id, user id and method; null for details sealed before that binding existed.';
alter table public.withdraw_requests add constraint withdraw_requests_details_key_version_positive
  check (details_key_version > 0);

drop function public.create_withdraw_request(uuid, numeric, text, text);

create function public.create_withdraw_request(
  p_request_id uuid,
  p_user_id uuid,
  p_amount numeric,
  p_method text,
  p_encrypted_data text,
  p_details_key_version smallint,
  p_details_digest text,
  p_idempotency_key uuid
) returns table (
  id uuid,
  user_id uuid,
  amount numeric,
  withdraw_method public.withdraw_method,
  status text,
  date timestamptz
)
language plpgsql
security definer
set search_path = ''
as $$
-- The output columns share names with table columns; inside queries the names mean the columns.
#variable_conflict use_column
declare
  caller uuid := (select auth.uid());
  wallet public.wallet_balances;
  created public.withdraw_requests;
  earlier jsonb;
begin
  if caller is null or p_user_id is distinct from caller then
    raise exception 'A withdraw request can only be made by the signed-in person for themselves'
      using errcode = '42501';
  end if;
  perform private.assert_usd_amount(p_amount);
  if p_method is null or p_method not in ('bank', 'card', 'wallet') then
    raise exception 'Withdraw method is required' using errcode = 'P0001';
  end if;
  if p_request_id is null then
    raise exception 'Request id is required' using errcode = 'P0001';
  end if;
  if p_encrypted_data is null or btrim(p_encrypted_data) = '' or p_details_key_version is null then
    raise exception 'Encrypted withdrawal details are required' using errcode = 'P0001';
  end if;

  earlier := private.replay_idempotent_call(
    p_idempotency_key,
    'create_withdraw_request',
    jsonb_build_object('amount', p_amount, 'method', p_method, 'details_digest', p_details_digest)
  );
  if earlier is not null then
    return query select (earlier ->> 'id')::uuid, (earlier ->> 'user_id')::uuid, (earlier ->> 'amount')::numeric,
      (earlier ->> 'withdraw_method')::public.withdraw_method, earlier ->> 'status', (earlier ->> 'date')::timestamptz;
    return;
  end if;

  perform private.assert_within_limits(p_amount, 'withdrawal');
  wallet := private.lock_wallet(caller);
  if wallet.available - p_amount < 0 then
    raise exception 'Insufficient balance (including all withdraw requests)' using errcode = 'P0001';
  end if;

  insert into public.withdraw_requests (id, user_id, amount, withdraw_method, encrypted_data, details_key_version)
  values (p_request_id, caller, p_amount, p_method::public.withdraw_method, p_encrypted_data, p_details_key_version)
  returning * into created;
  perform private.write_audit(
    'withdraw_request.create',
    'withdraw_requests',
    created.id,
    jsonb_build_object('user_id', caller, 'amount', p_amount, 'withdraw_method', p_method)
  );
  perform private.remember_idempotent_response(
    p_idempotency_key,
    jsonb_build_object(
      'id', created.id, 'user_id', created.user_id, 'amount', created.amount,
      'withdraw_method', created.withdraw_method, 'status', created.status, 'date', created.date
    )
  );
  return query select created.id, created.user_id, created.amount, created.withdraw_method, created.status, created.date;
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
