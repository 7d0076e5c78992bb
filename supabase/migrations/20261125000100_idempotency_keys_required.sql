-- Every request that moves money carries an idempotency key; the key-less paths are gone:
--   - the key-less approve_buy_request, reject_buy_request, set_withdraw_request_status and
--     set_transaction_status move to the private schema (same bodies, no API role can call them), where
--     the keyed RPCs call them as the one body of each decision. Moved rather than merely revoked: a
--     revoked public overload would still answer a key-less call with 'permission denied for function',
--     which reads like the admin lacks a right, not like the call lacks its key;
--   - the keyed RPCs take the key with a default of null, so a call without one reaches them (PostgREST
--     picks the overload by the argument names sent) and is refused with 'Idempotency key is required';
--   - direct REST inserts of buy requests and of deposits are revoked (grant and policy): people create
--     buy requests through create_buy_request and admins create deposits through create_deposit.

alter function public.approve_buy_request(uuid) set schema private;
alter function public.reject_buy_request(uuid) set schema private;
alter function public.set_withdraw_request_status(uuid, text) set schema private;
alter function public.set_transaction_status(uuid, text) set schema private;
revoke execute on function private.approve_buy_request(uuid) from public, anon, authenticated, service_role;
revoke execute on function private.reject_buy_request(uuid) from public, anon, authenticated, service_role;
revoke execute on function private.set_withdraw_request_status(uuid, text) from public, anon, authenticated, service_role;
revoke execute on function private.set_transaction_status(uuid, text) from public, anon, authenticated, service_role;
comment on function private.approve_buy_request(uuid) is
  'The decision behind public.approve_buy_request (called only with a claimed idempotency key): takes the '
  'amount from the balance (''Insufficient balance'' if the available balance would go negative) and records '
  'a complete buy transaction, atomically.';
comment on function private.reject_buy_request(uuid) is
  'The decision behind public.reject_buy_request (called only with a claimed idempotency key); no money moves.';
comment on function private.set_withdraw_request_status(uuid, text) is
  'The decision behind public.set_withdraw_request_status (called only with a claimed idempotency key): '
  'approved records a complete withdraw transaction; approved and rejected are final; any other status is a '
  'label on the open request.';
comment on function private.set_transaction_status(uuid, text) is
  'The change behind public.set_transaction_status (called only with a claimed idempotency key): refused with '
  '''Insufficient balance'' when the available balance would go negative, and with ''Transactions of approved '
  'requests are final'' for the entry of a buy or withdraw request.';

create or replace function public.approve_buy_request(request_id uuid, idempotency_key uuid default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  if private.replay_idempotent_call(idempotency_key, 'approve_buy_request', jsonb_build_object('request_id', request_id))
    is null
  then
    perform private.approve_buy_request(request_id);
  end if;
end;
$$;
comment on function public.approve_buy_request(uuid, uuid) is
  'Admin only. Approves a pending buy request once per idempotency key (required): a retried approval answers '
  'success again.';

create or replace function public.reject_buy_request(request_id uuid, idempotency_key uuid default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  if private.replay_idempotent_call(idempotency_key, 'reject_buy_request', jsonb_build_object('request_id', request_id))
    is null
  then
    perform private.reject_buy_request(request_id);
  end if;
end;
$$;
comment on function public.reject_buy_request(uuid, uuid) is
  'Admin only. Rejects a pending buy request once per idempotency key (required): a retried rejection answers '
  'success again.';

create or replace function public.set_withdraw_request_status(
  request_id uuid,
  new_status text,
  idempotency_key uuid default null
) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  if private.replay_idempotent_call(
    idempotency_key,
    'set_withdraw_request_status',
    jsonb_build_object('request_id', request_id, 'new_status', btrim(new_status))
  ) is null then
    perform private.set_withdraw_request_status(request_id, new_status);
  end if;
end;
$$;
comment on function public.set_withdraw_request_status(uuid, text, uuid) is
  'Admin only. Sets a withdraw request''s status once per idempotency key (required): approved pays out, '
  'approved and rejected are final; a retried decision answers success again.';

create or replace function public.set_transaction_status(
  transaction_id uuid,
  new_status text,
  idempotency_key uuid default null
) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  if private.replay_idempotent_call(
    idempotency_key,
    'set_transaction_status',
    jsonb_build_object('transaction_id', transaction_id, 'new_status', btrim(new_status))
  ) is null then
    perform private.set_transaction_status(transaction_id, new_status);
  end if;
end;
$$;
comment on function public.set_transaction_status(uuid, text, uuid) is
  'Admin only. Sets a deposit''s status once per idempotency key (required); the ledger trigger moves the '
  'balance, and a retried change moves no money twice.';

drop policy "People can create pending buy requests for themselves" on public.buy_requests;
revoke insert on table public.buy_requests from authenticated;
drop policy "Admins can create pending deposits" on public.transactions;
revoke insert on table public.transactions from authenticated;
