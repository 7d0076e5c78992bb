-- The smaller findings of issue 26:
--   - removing a person's factors also ends their sessions (an aal2 session outlived the factor it verified);
--   - security e-mails go only to an address its owner confirmed, and the "e-mail changed" notice goes to the
--     OLD address (the new one may be the attacker's);
--   - create_withdraw_request is the withdrawals function's alone (service role): the function passes the
--     person Auth verified and their session, and the database checks that session in auth.sessions (its
--     owner, its expiry, its aal) before acting for the person. A signed-in person can no longer store a blob
--     the function never sealed;
--   - an approval fills only at a price snapshot at most 2 minutes old (was 10): the market function records
--     a snapshot at each fetch of the prices (at most one a minute per query while anyone watches them).

create or replace function public.remove_two_factor(user_id uuid) returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  target public.profiles;
  removed integer;
  ended integer;
begin
  perform private.assert_admin();
  select * into target from public.profiles where id = remove_two_factor.user_id and closed_at is null;
  if not found then
    raise exception 'User not found' using errcode = 'P0002';
  end if;
  delete from auth.mfa_factors where mfa_factors.user_id = target.id;
  get diagnostics removed = row_count;
  -- As Auth's own sign-out does: the session rows go (their refresh tokens with them), so no session raised
  -- to aal2 by the removed factor can be refreshed.
  delete from auth.sessions where sessions.user_id = target.id;
  get diagnostics ended = row_count;
  perform private.write_audit(
    'user.remove_two_factor',
    'profiles',
    target.id,
    jsonb_build_object('email', target.email, 'factors_removed', removed, 'sessions_ended', ended)
  );
  return removed;
end;
$$;
comment on function public.remove_two_factor(uuid) is
  'Admin only (aal2). Removes every two-factor factor of a person who lost their authenticator and ends their '
  'sessions (they sign in again), recorded in audit_log; answers how many factors were removed. Unknown ids: '
  'P0002.';

create or replace function private.queue_security_email(user_id uuid, subject text, body text) returns void
language sql
security definer
set search_path = ''
as $$
  insert into private.security_emails (user_id, recipient, subject, body)
  select users.id, users.email, queue_security_email.subject, queue_security_email.body
  from auth.users
  where users.id = queue_security_email.user_id and users.email is not null and users.email_confirmed_at is not null;
$$;
comment on function private.queue_security_email(uuid, text, text) is
  'Queues a security e-mail to the person''s address if they confirmed it (none otherwise: an unproven '
  'address may be anyone''s); send-security-emails adds the "this wasn''t me" link.';

create or replace function private.notify_security_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  title text := case new.change
    when 'password' then 'Password changed'
    when 'email' then 'E-mail address changed'
    when 'factor_added' then 'Two-factor authentication added'
    else 'Two-factor authentication removed'
  end;
begin
  perform private.notify(
    new.user_id,
    'security.' || new.change,
    title,
    'New withdrawals wait for the security hold. If this wasn''t you, use the link in the e-mail we sent to lock '
      || 'your withdrawals, and contact support.'
  );
  -- An e-mail change is mailed to the old address by record_account_change, which still knows it.
  if new.change <> 'email' then
    perform private.queue_security_email(
      new.user_id,
      title,
      title || ' on your account at ' || private.format_utc(new.changed_at)
        || '. New withdrawals wait for the security hold.'
    );
  end if;
  return null;
end;
$$;

create or replace function private.record_account_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.encrypted_password is distinct from old.encrypted_password then
    perform private.record_security_change(new.id, 'password');
  end if;
  if new.email is distinct from old.email then
    perform private.record_security_change(new.id, 'email');
    insert into private.security_emails (user_id, recipient, subject, body)
    select new.id, old.email, 'E-mail address changed',
      'The e-mail address of your account was changed at ' || private.format_utc(now())
        || '. New withdrawals wait for the security hold.'
    where old.email is not null and old.email_confirmed_at is not null;
  end if;
  return null;
end;
$$;
comment on function private.record_account_change() is
  'A changed password or e-mail address (a reset link included) starts the person''s withdrawal hold; an e-mail '
  'change is mailed to the old address, if it was confirmed.';

drop function public.create_withdraw_request(uuid, uuid, numeric, text, text, smallint, text, uuid);

create function public.create_withdraw_request(
  request_id uuid,
  user_id uuid,
  session_id uuid,
  amount numeric,
  withdraw_method text,
  encrypted_data text,
  details_key_version smallint,
  details_digest text,
  idempotency_key uuid
)
returns public.created_withdraw_request
language plpgsql
security definer
set search_path = ''
as $$
-- Arguments are named like the table's columns: inside queries an unqualified name is the column, and the
-- arguments are always written qualified (create_withdraw_request.amount).
#variable_conflict use_column
declare
  session_aal text;
  caller uuid;
  wallet public.wallet_balances;
  created public.withdraw_requests;
  answer public.created_withdraw_request;
  earlier jsonb;
begin
  select coalesce(sessions.aal::text, 'aal1') into session_aal
  from auth.sessions
  where sessions.id = create_withdraw_request.session_id
    and sessions.user_id = create_withdraw_request.user_id
    and (sessions.not_after is null or sessions.not_after > now());
  if not found then
    raise exception 'A withdraw request can only be made by the signed-in person for themselves'
      using errcode = '42501';
  end if;
  perform private.assert_aal2_for_money(create_withdraw_request.user_id, session_aal, 'withdraw');
  -- From here the person acts, at their session's level: their id keys the idempotency record and the audit
  -- entry, and the request tables' triggers see their session (this transaction only).
  perform set_config(
    'request.jwt.claims',
    jsonb_build_object(
      'sub', create_withdraw_request.user_id,
      'role', 'authenticated',
      'aal', session_aal,
      'session_id', create_withdraw_request.session_id
    )::text,
    true
  );
  caller := create_withdraw_request.user_id;

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
comment on function public.create_withdraw_request(uuid, uuid, uuid, numeric, text, text, smallint, text, uuid) is
  'The withdrawals Edge Function''s alone (service role), after it verified the person with Auth and sealed the '
  'details for this request id: acts for user_id only through their live Auth session session_id (at aal2 when '
  'they have a verified factor). Once per idempotency key; checks the limits and, under the person''s lock, the '
  'available balance. Returns the request without encrypted_data.';
revoke execute on function public.create_withdraw_request(uuid, uuid, uuid, numeric, text, text, smallint, text, uuid)
  from public, anon, authenticated;
grant execute on function public.create_withdraw_request(uuid, uuid, uuid, numeric, text, text, smallint, text, uuid)
  to service_role;

create or replace function private.fresh_price(p_cryptocurrency text) returns numeric
language sql
stable
set search_path = ''
as $$
  select price from public.price_snapshots
  where cryptocurrency = p_cryptocurrency and captured_at >= now() - interval '2 minutes'
  order by captured_at desc
  limit 1;
$$;
comment on function private.fresh_price(text) is
  'The coin''s newest snapshot price if recorded in the last 2 minutes (what private.current_price fills at), '
  'else null: for showing, where private.current_price would refuse.';

create or replace function private.current_price(p_cryptocurrency text) returns numeric
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  current numeric := private.fresh_price(p_cryptocurrency);
begin
  if current is null then
    raise exception 'No current price for %: none was recorded in the last 2 minutes', p_cryptocurrency
      using errcode = 'P0001';
  end if;
  return current;
end;
$$;
comment on function private.current_price(text) is
  'The server''s current USD price of a coin (its newest snapshot); refuses one older than 2 minutes.';
