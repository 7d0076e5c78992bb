-- Money-moving steps, each one database transaction: deciding buy requests, creating and settling
-- withdraw requests, changing a transaction's status. Lock order everywhere: the request or
-- transaction first, then the person's profile, so concurrent steps queue instead of deadlocking.

create function private.assert_admin() returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_admin() then
    raise exception 'Only admins can do this' using errcode = '42501';
  end if;
end;
$$;
comment on function private.assert_admin() is 'Raises permission denied (42501) unless the caller is an admin.';
revoke execute on function private.assert_admin() from public;

create function private.lock_wallet(p_user_id uuid) returns public.wallet_balances
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  wallet public.wallet_balances;
begin
  perform 1 from public.profiles where id = p_user_id for update;
  if not found then
    raise exception 'User not found' using errcode = 'P0001';
  end if;
  -- A new statement after the lock: under read committed it sees every step committed before ours.
  select * into wallet from public.wallet_balances where user_id = p_user_id;
  return wallet;
end;
$$;
comment on function private.lock_wallet(uuid) is
  'Locks a person''s profile (serialising their money steps) and returns their current wallet balances.';
revoke execute on function private.lock_wallet(uuid) from public;

create function private.assert_known_status(p_status text, p_built_in text[]) returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if p_status is null or p_status = '' then
    raise exception 'Status is required' using errcode = 'P0001';
  end if;
  if not (p_status = any (p_built_in) or exists (select 1 from public.status_types where name = p_status)) then
    raise exception 'Unknown status "%"', p_status using errcode = 'P0001';
  end if;
end;
$$;
comment on function private.assert_known_status(text, text[]) is
  'Raises unless the status is one of the built-in ones given or an admin-defined status type.';
revoke execute on function private.assert_known_status(text, text[]) from public;

create function public.approve_buy_request(request_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  request public.buy_requests;
  wallet public.wallet_balances;
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

  insert into public.transactions (user_id, type, amount, status, cryptocurrency, buy_request_id)
  values (request.user_id, 'buy', request.amount, 'complete', request.cryptocurrency, request.id);
  update public.buy_requests
    set status = 'approved', decided_at = now(), decided_by = (select auth.uid())
    where id = request.id;
  perform private.write_audit(
    'buy_request.approve',
    'buy_requests',
    request.id,
    jsonb_build_object('user_id', request.user_id, 'amount', request.amount, 'cryptocurrency', request.cryptocurrency)
  );
end;
$$;
comment on function public.approve_buy_request(uuid) is
  'Admin only. Approves a pending buy request: takes the amount from the balance (''Insufficient balance'' if '
  'the available balance would go negative) and records a complete buy transaction, atomically.';

create function public.reject_buy_request(request_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  request public.buy_requests;
begin
  perform private.assert_admin();
  select * into request from public.buy_requests where id = request_id for update;
  if not found then
    raise exception 'Buy request not found' using errcode = 'P0001';
  end if;
  if request.status <> 'pending' then
    raise exception 'Request has already been decided' using errcode = 'P0001';
  end if;

  update public.buy_requests
    set status = 'rejected', decided_at = now(), decided_by = (select auth.uid())
    where id = request.id;
  perform private.write_audit(
    'buy_request.reject',
    'buy_requests',
    request.id,
    jsonb_build_object('user_id', request.user_id, 'amount', request.amount)
  );
end;
$$;
comment on function public.reject_buy_request(uuid) is 'Admin only. Rejects a pending buy request; no money moves.';

create function public.create_withdraw_request(
  p_user_id uuid,
  p_amount numeric,
  p_method text,
  p_encrypted_data text
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
  wallet public.wallet_balances;
  created public.withdraw_requests;
begin
  perform private.assert_usd_amount(p_amount);
  if p_method is null or p_method not in ('bank', 'card', 'wallet') then
    raise exception 'Withdraw method is required' using errcode = 'P0001';
  end if;
  if p_encrypted_data is null or btrim(p_encrypted_data) = '' then
    raise exception 'Encrypted withdrawal details are required' using errcode = 'P0001';
  end if;
  perform private.assert_within_limits(p_amount, 'withdrawal');

  wallet := private.lock_wallet(p_user_id);
  if wallet.available - p_amount < 0 then
    raise exception 'Insufficient balance (including all withdraw requests)' using errcode = 'P0001';
  end if;

  insert into public.withdraw_requests (user_id, amount, withdraw_method, encrypted_data)
  values (p_user_id, p_amount, p_method::public.withdraw_method, p_encrypted_data)
  returning * into created;
  perform private.write_audit(
    'withdraw_request.create',
    'withdraw_requests',
    created.id,
    jsonb_build_object('user_id', p_user_id, 'amount', p_amount, 'withdraw_method', p_method),
    p_user_id
  );
  return query select created.id, created.user_id, created.amount, created.withdraw_method, created.status, created.date;
end;
$$;
comment on function public.create_withdraw_request(uuid, numeric, text, text) is
  'Service role only (the withdrawals Edge Function, after it validated and encrypted the form). Checks the '
  'limits and, under the person''s lock, the available balance; returns the request without encrypted_data.';

create function public.set_withdraw_request_status(request_id uuid, new_status text) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  request public.withdraw_requests;
  wallet public.wallet_balances;
  wanted text := btrim(new_status);
begin
  perform private.assert_admin();
  perform private.assert_known_status(wanted, array['pending', 'approved', 'rejected']);
  select * into request from public.withdraw_requests where id = request_id for update;
  if not found then
    raise exception 'Withdraw request not found' using errcode = 'P0001';
  end if;
  if request.status in ('approved', 'rejected') then
    raise exception 'Request has already been decided' using errcode = 'P0001';
  end if;

  if wanted = 'approved' then
    -- The amount was reserved while open; paying it out must still leave the ledger balance covered.
    wallet := private.lock_wallet(request.user_id);
    if wallet.balance - request.amount < 0 then
      raise exception 'Insufficient balance' using errcode = 'P0001';
    end if;
    insert into public.transactions (user_id, type, amount, status, withdraw_request_id)
    values (request.user_id, 'withdraw', request.amount, 'complete', request.id);
  end if;

  update public.withdraw_requests
    set status = wanted,
      decided_at = case when wanted in ('approved', 'rejected') then now() end,
      decided_by = case when wanted in ('approved', 'rejected') then (select auth.uid()) end
    where id = request.id;
  perform private.write_audit(
    'withdraw_request.set_status',
    'withdraw_requests',
    request.id,
    jsonb_build_object('user_id', request.user_id, 'amount', request.amount, 'old', request.status, 'new', wanted)
  );
end;
$$;
comment on function public.set_withdraw_request_status(uuid, text) is
  'Admin only. approved records a complete withdraw transaction; approved and rejected are final; any other '
  'status (pending or a status type) is a label on the open request.';

create function public.set_transaction_status(transaction_id uuid, new_status text) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  entry public.transactions;
  wallet public.wallet_balances;
  wanted text := btrim(new_status);
  change numeric;
begin
  perform private.assert_admin();
  perform private.assert_known_status(wanted, array['pending', 'complete']);
  select * into entry from public.transactions where id = transaction_id for update;
  if not found then
    raise exception 'Transaction not found' using errcode = 'P0001';
  end if;

  change := private.ledger_effect(entry.type, entry.amount, wanted)
    - private.ledger_effect(entry.type, entry.amount, entry.status);
  if change < 0 then
    wallet := private.lock_wallet(entry.user_id);
    if wallet.available + change < 0 then
      raise exception 'Insufficient balance' using errcode = 'P0001';
    end if;
  end if;

  update public.transactions set status = wanted where id = entry.id;
  perform private.write_audit(
    'transaction.set_status',
    'transactions',
    entry.id,
    jsonb_build_object('user_id', entry.user_id, 'amount', entry.amount, 'old', entry.status, 'new', wanted)
  );
end;
$$;
comment on function public.set_transaction_status(uuid, text) is
  'Admin only. Sets pending, complete or a status type; refused with ''Insufficient balance'' when the change '
  'would make the available balance negative. The ledger trigger moves the balance.';

revoke execute on function public.approve_buy_request(uuid) from public, anon, authenticated, service_role;
revoke execute on function public.reject_buy_request(uuid) from public, anon, authenticated, service_role;
revoke execute on function public.create_withdraw_request(uuid, numeric, text, text)
  from public, anon, authenticated, service_role;
revoke execute on function public.set_withdraw_request_status(uuid, text) from public, anon, authenticated, service_role;
revoke execute on function public.set_transaction_status(uuid, text) from public, anon, authenticated, service_role;

grant execute on function public.approve_buy_request(uuid) to authenticated;
grant execute on function public.reject_buy_request(uuid) to authenticated;
grant execute on function public.create_withdraw_request(uuid, numeric, text, text) to service_role;
grant execute on function public.set_withdraw_request_status(uuid, text) to authenticated;
grant execute on function public.set_transaction_status(uuid, text) to authenticated;
