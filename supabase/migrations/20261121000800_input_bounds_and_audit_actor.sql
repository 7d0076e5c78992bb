-- Bounds on free text written through the API (so nobody stores megabytes in a name), and the audit
-- actor of service-role calls: the withdrawals function acts for the signed-in person, who has no
-- auth.uid() inside the service role's request.

alter table public.profiles
  add constraint profiles_full_name_length check (char_length(full_name) <= 200);
alter table public.status_types
  add constraint status_types_name_length check (char_length(name) <= 50);
alter table public.transactions
  add constraint transactions_status_length check (char_length(status) <= 50);
alter table public.withdraw_requests
  add constraint withdraw_requests_status_length check (char_length(status) <= 50),
  add constraint withdraw_requests_encrypted_data_length check (char_length(encrypted_data) <= 20000);

drop function private.write_audit(text, text, uuid, jsonb);

create function private.write_audit(
  p_action text,
  p_target_table text,
  p_target_id uuid,
  p_details jsonb default '{}'::jsonb,
  p_actor_id uuid default null
) returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.audit_log (actor_id, action, target_table, target_id, details)
  values (
    coalesce(p_actor_id, (select auth.uid())),
    p_action,
    p_target_table,
    p_target_id,
    coalesce(p_details, '{}'::jsonb)
  );
$$;
comment on function private.write_audit(text, text, uuid, jsonb, uuid) is
  'Appends one audit_log row; the actor is the given person, else the current request''s user.';
revoke execute on function private.write_audit(text, text, uuid, jsonb, uuid) from public;

create or replace function public.create_withdraw_request(
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
