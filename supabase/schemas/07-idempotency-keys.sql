-- Idempotency keys for every request that moves money. The browser makes one key (a uuid) per form
-- submission and sends it again when it retries a lost answer. The key is kept per person (the caller,
-- auth.uid()) under a primary key: a repeat with the same key answers what the first call answered (the
-- same request, the same id) and creates nothing; the same key with other content is refused. A call
-- that failed leaves no key behind (its transaction rolled back), so it can be retried as it was.
--
-- What a key means per step:
--   create_buy_request, create_deposit, create_withdraw_request: one new row; the replay returns that row.
--   approve_buy_request, reject_buy_request, set_withdraw_request_status, set_transaction_status (the
--   approvals): one decision, that is, this status for this row by this admin. The replay answers
--   success again, where a plain repeat would be told 'Request has already been decided'; the key used
--   for another row or another status is refused.
-- The key is required: the keyed RPCs take it with a default of null, so a call without one reaches them
-- (PostgREST picks the overload by the argument names sent) and is refused with 'Idempotency key is
-- required'. The decision bodies they call are private (06-money-rpcs.sql), so no API role calls them
-- key-less; people create buy requests and admins deposits only through these RPCs, never by insert.

create table private.idempotency_keys (
  actor_id uuid not null,
  key uuid not null,
  operation text not null,
  request jsonb not null,
  response jsonb,
  created_at timestamptz not null default now(),
  primary key (actor_id, key)
);
comment on table private.idempotency_keys is
  'One row per money-moving call made with an idempotency key: what was asked and what was answered.';
comment on column private.idempotency_keys.actor_id is 'The caller (auth.uid()); keys are unique per person.';
comment on column private.idempotency_keys.key is 'The uuid the browser made for one form submission.';
comment on column private.idempotency_keys.operation is 'The RPC that used the key, e.g. create_buy_request.';
comment on column private.idempotency_keys.request is 'What was asked (the content a repeat must match).';
comment on column private.idempotency_keys.response is 'What was answered (the row created), returned again on a repeat.';
comment on column private.idempotency_keys.created_at is 'When the key was first used.';
-- Not exposed (private schema) and reached only through the two security-definer helpers below.
revoke all on table private.idempotency_keys from public, anon, authenticated, service_role;
create function private.replay_idempotent_call(p_key uuid, p_operation text, p_request jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  actor uuid := auth.uid();
  earlier private.idempotency_keys;
begin
  if p_key is null then
    raise exception 'Idempotency key is required' using errcode = 'P0001';
  end if;
  if actor is null then
    raise exception 'Sign in to continue' using errcode = '42501';
  end if;
  -- A concurrent call with the same key waits here until the first one commits (then replays it) or
  -- rolls back (then this call goes ahead): never two rows for one key.
  insert into private.idempotency_keys (actor_id, key, operation, request)
  values (actor, p_key, p_operation, p_request)
  on conflict do nothing;
  if found then
    return null;
  end if;
  select * into earlier from private.idempotency_keys where actor_id = actor and key = p_key;
  if earlier.operation <> p_operation or earlier.request <> p_request then
    raise exception 'This request was already submitted with different details' using errcode = 'P0001';
  end if;
  return coalesce(earlier.response, 'null'::jsonb);
end;
$$;
comment on function private.replay_idempotent_call(uuid, text, jsonb) is
  'Claims the caller''s key for this call and returns null (go ahead), or returns the earlier answer when the '
  'key already made the same call; refuses the key with other content.';
revoke execute on function private.replay_idempotent_call(uuid, text, jsonb) from public;
create function private.remember_idempotent_response(p_key uuid, p_response jsonb) returns void
language sql
security definer
set search_path = ''
as $$
  update private.idempotency_keys set response = p_response
  where actor_id = (select auth.uid()) and key = p_key;
$$;
comment on function private.remember_idempotent_response(uuid, jsonb) is
  'Stores the answer of the call that claimed the key, in the same transaction as its effect.';
revoke execute on function private.remember_idempotent_response(uuid, jsonb) from public;
create function public.create_deposit(user_id uuid, amount numeric, idempotency_key uuid)
returns public.transactions
language plpgsql
security definer
set search_path = ''
as $$
declare
  earlier jsonb;
  created public.transactions;
begin
  perform private.assert_admin();
  earlier := private.replay_idempotent_call(
    idempotency_key,
    'create_deposit',
    jsonb_build_object('user_id', user_id, 'amount', amount)
  );
  if earlier is not null then
    return jsonb_populate_record(null::public.transactions, earlier);
  end if;
  perform 1 from public.profiles where id = create_deposit.user_id and closed_at is null;
  if not found then
    raise exception 'User not found' using errcode = 'P0001';
  end if;
  perform private.assert_not_own_account(create_deposit.user_id);
  insert into public.transactions (user_id, type, amount, status)
  values (create_deposit.user_id, 'deposit', create_deposit.amount, 'pending')
  returning * into created;
  perform private.remember_idempotent_response(idempotency_key, to_jsonb(created));
  return created;
end;
$$;
comment on function public.create_deposit(uuid, numeric, uuid) is
  'Admin only. A pending deposit for a person, once per idempotency key (a repeat returns the same entry); it '
  'moves money when set_transaction_status marks it complete.';
create function public.approve_buy_request(request_id uuid, idempotency_key uuid default null)
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
create function public.reject_buy_request(
  request_id uuid,
  idempotency_key uuid default null,
  reason text default null
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  if private.replay_idempotent_call(
    idempotency_key,
    'reject_buy_request',
    jsonb_build_object('request_id', request_id, 'reason', private.assert_rejection_reason(reason))
  ) is null then
    perform private.reject_buy_request(request_id, reason);
  end if;
end;
$$;
comment on function public.reject_buy_request(uuid, uuid, text) is
  'Admin only. Rejects a pending buy request once per idempotency key (required), with the reason the person '
  'is shown: a retried rejection answers success again.';
create function public.set_withdraw_request_status(
  request_id uuid,
  new_status text,
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
    'set_withdraw_request_status',
    jsonb_build_object(
      'request_id', request_id, 'new_status', btrim(new_status), 'reason', private.assert_rejection_reason(reason)
    )
  ) is null then
    perform private.set_withdraw_request_status(request_id, new_status, reason);
  end if;
end;
$$;
comment on function public.set_withdraw_request_status(uuid, text, uuid, text) is
  'Admin only. Sets a withdraw request''s status once per idempotency key (required): approved pays out, '
  'approved, rejected (with the reason the person is shown) and cancelled are final; a retried decision answers '
  'success again.';
create function public.set_transaction_status(
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
revoke execute on function public.create_deposit(uuid, numeric, uuid) from public, anon, authenticated, service_role;
grant execute on function public.create_deposit(uuid, numeric, uuid) to authenticated;
revoke execute on function public.approve_buy_request(uuid, uuid) from public, anon, authenticated, service_role;
grant execute on function public.approve_buy_request(uuid, uuid) to authenticated;
revoke execute on function public.reject_buy_request(uuid, uuid, text) from public, anon, authenticated, service_role;
grant execute on function public.reject_buy_request(uuid, uuid, text) to authenticated;
revoke execute on function public.set_withdraw_request_status(uuid, text, uuid, text)
  from public, anon, authenticated, service_role;
grant execute on function public.set_withdraw_request_status(uuid, text, uuid, text) to authenticated;
revoke execute on function public.set_transaction_status(uuid, text, uuid) from public, anon, authenticated, service_role;
grant execute on function public.set_transaction_status(uuid, text, uuid) to authenticated;
