-- A hold on new withdrawals after a security change. Someone who has taken over an account (a stolen
-- password, a reset link from a hacked mailbox) changes the password or the second factor first; for the
-- hours set beside the transaction limits afterwards, no money leaves, and the real owner has time to notice
-- (the notifications tell them). Only an admin ends a hold early, audited.

create function private.validate_security_hold_hours() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.security_hold_hours is null or new.security_hold_hours not between 0 and 720 then
    raise exception 'Security hold must be between 0 and 720 hours' using errcode = 'P0001';
  end if;
  return new;
end;
$$;
comment on function private.validate_security_hold_hours() is
  'Refuses a security hold outside 0 to 720 hours (30 days) with the app''s own text.';
create trigger validate_security_hold_hours_before_update
  before update of security_hold_hours on public.transaction_limits
  for each row execute function private.validate_security_hold_hours();
comment on trigger validate_security_hold_hours_before_update on public.transaction_limits is
  'Clear errors for a bad security hold.';
create function private.audit_security_hold_hours() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.write_audit(
    'security_hold_hours.update',
    'transaction_limits',
    null,
    jsonb_build_object('old', old.security_hold_hours, 'new', new.security_hold_hours)
  );
  return null;
end;
$$;
comment on function private.audit_security_hold_hours() is 'Records a change of the security hold in audit_log.';
revoke execute on function private.audit_security_hold_hours() from public;
create trigger audit_security_hold_hours_change
  after update on public.transaction_limits
  for each row when (old.security_hold_hours is distinct from new.security_hold_hours)
  execute function private.audit_security_hold_hours();
comment on trigger audit_security_hold_hours_change on public.transaction_limits is
  'Every change of the security hold is audited.';
create table private.security_holds (
  user_id uuid primary key references auth.users (id) on delete cascade,
  changed_at timestamptz not null,
  change text not null,
  ended_early_at timestamptz,
  ended_early_by uuid,
  constraint security_holds_change_known check (change in ('password', 'email', 'factor_added', 'factor_removed'))
);
comment on table private.security_holds is
  'Each person''s latest security change, from which their withdrawal hold runs. Written by triggers on Auth''s '
  'tables; not reachable through the API.';
comment on column private.security_holds.changed_at is 'When the latest security change happened.';
comment on column private.security_holds.change is
  'What changed: password, email, factor_added (a two-factor method verified) or factor_removed.';
comment on column private.security_holds.ended_early_at is
  'When an admin ended the hold of this change early (end_security_hold); a later change starts a new hold.';
comment on column private.security_holds.ended_early_by is 'The admin who ended the hold early.';
revoke all on table private.security_holds from public, anon, authenticated, service_role;
create table private.withdrawal_locks (
  user_id uuid primary key references auth.users (id) on delete cascade,
  locked_at timestamptz not null default now(),
  security_email_id uuid
);
comment on table private.withdrawal_locks is
  'People whose withdrawals are locked because they reported a security change they did not make (the '
  '"this wasn''t me" link of a security e-mail); only an admin lifts a lock (end_security_hold).';
comment on column private.withdrawal_locks.security_email_id is 'The e-mail whose "this wasn''t me" link locked them.';
create index withdrawal_locks_security_email_id_idx on private.withdrawal_locks (security_email_id);
comment on index private.withdrawal_locks_security_email_id_idx is 'Deleting an e-mail clears the lock''s reference.';
revoke all on table private.withdrawal_locks from public, anon, authenticated, service_role;
create function private.record_security_change(p_user_id uuid, p_change text) returns void
language sql
security definer
set search_path = ''
as $$
  -- A factor's row goes with its person (a cascade from auth.users): a deleted person needs no hold.
  insert into private.security_holds (user_id, changed_at, change)
  select p_user_id, now(), p_change
  where exists (select from auth.users where id = p_user_id)
  on conflict (user_id) do update
    set changed_at = excluded.changed_at, change = excluded.change, ended_early_at = null, ended_early_by = null;
$$;
comment on function private.record_security_change(uuid, text) is
  'Starts a new withdrawal hold for the person (a later change replaces the earlier one, and any early end).';
revoke execute on function private.record_security_change(uuid, text) from public;
create function private.record_account_change() returns trigger
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
revoke execute on function private.record_account_change() from public;
create trigger record_security_change_after_update
  after update of encrypted_password, email on auth.users
  for each row when (
    old.encrypted_password is distinct from new.encrypted_password or old.email is distinct from new.email
  )
  execute function private.record_account_change();
comment on trigger record_security_change_after_update on auth.users is
  'Password and e-mail changes start a withdrawal hold.';
create function private.record_factor_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- An unverified factor is an enrolment in progress (GoTrue deletes it after a while): only a factor
  -- that signs in counts as added, and only such a factor's removal as removed.
  if tg_op = 'DELETE' then
    if old.status = 'verified' then
      perform private.record_security_change(old.user_id, 'factor_removed');
    end if;
    return null;
  end if;
  if new.status = 'verified' and (tg_op = 'INSERT' or old.status is distinct from 'verified') then
    perform private.record_security_change(new.user_id, 'factor_added');
  end if;
  return null;
end;
$$;
comment on function private.record_factor_change() is
  'A two-factor method verified or removed starts the person''s withdrawal hold.';
revoke execute on function private.record_factor_change() from public;
create trigger record_security_change_after_write
  after insert or update of status or delete on auth.mfa_factors
  for each row execute function private.record_factor_change();
comment on trigger record_security_change_after_write on auth.mfa_factors is
  'Verifying or removing a two-factor method starts a withdrawal hold.';
-- PL/pgSQL, whose statement's plan is kept for the session: the money gate and the admin Users list call it
-- once per row from inside another function, where a SQL function is parsed and planned again on every call.
create function private.security_hold_until(p_user_id uuid)
returns table (hold_until timestamptz, change text)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return query
  select hold.changed_at + make_interval(hours => limits.security_hold_hours), hold.change
  from private.security_holds as hold
  cross join public.transaction_limits as limits
  where hold.user_id = p_user_id
    and hold.ended_early_at is null
    and hold.changed_at + make_interval(hours => limits.security_hold_hours) > now();
end;
$$;
comment on function private.security_hold_until(uuid) is
  'Until when the person''s withdrawals are held and why; no row when they are not.';
revoke execute on function private.security_hold_until(uuid) from public;
create function private.refuse_withdrawal_during_hold() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.assert_money_gate(new.user_id, 'withdraw', 'person');
  return new;
end;
$$;
comment on function private.refuse_withdrawal_during_hold() is
  'Refuses a new withdrawal the money gate stops (a lock or a security hold), whoever inserts it.';
revoke execute on function private.refuse_withdrawal_during_hold() from public;
create trigger refuse_withdrawal_during_hold_before_insert
  before insert on public.withdraw_requests
  for each row execute function private.refuse_withdrawal_during_hold();
comment on trigger refuse_withdrawal_during_hold_before_insert on public.withdraw_requests is
  'No new withdrawal during a security hold or a lock, whoever inserts it.';
create function public.end_security_hold(user_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  hold record;
  released private.withdrawal_locks;
begin
  perform private.assert_admin();
  select * into hold from private.security_hold_until(end_security_hold.user_id);
  delete from private.withdrawal_locks where withdrawal_locks.user_id = end_security_hold.user_id
    returning * into released;
  if hold is null and released is null then
    raise exception 'This person''s withdrawals are not on hold' using errcode = 'P0001';
  end if;
  if hold is not null then
    update private.security_holds
      set ended_early_at = now(), ended_early_by = (select auth.uid())
      where security_holds.user_id = end_security_hold.user_id;
  end if;
  perform private.write_audit(
    'security_hold.end',
    'profiles',
    end_security_hold.user_id,
    jsonb_build_object('change', hold.change, 'hold_until', hold.hold_until, 'locked_at', released.locked_at)
  );
end;
$$;
comment on function public.end_security_hold(uuid) is
  'Admin only, audited. Ends a person''s withdrawal hold early and lifts a "this wasn''t me" lock (after support '
  'made sure who they are); refuses when there is neither (P0001).';
revoke execute on function public.end_security_hold(uuid) from public, anon, authenticated, service_role;
grant execute on function public.end_security_hold(uuid) to authenticated;

create function private.money_gate(p_user_id uuid, p_movement text, p_audience text default 'admin')
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  hold record;
  reason text;
begin
  if p_movement is null or p_movement not in ('deposit', 'buy', 'sell', 'withdraw', 'cancel') then
    raise exception 'Unknown movement of money: %', p_movement using errcode = 'P0001';
  end if;
  if p_movement <> 'deposit' and exists (select from private.withdrawal_locks where user_id = p_user_id) then
    if p_audience = 'admin' then
      return 'Locked: this person reported a change they did not make ("this wasn''t me"). Nothing but '
        || 'deposits moves until an admin ends the lock on Settings.';
    end if;
    if p_movement = 'cancel' then
      return 'Requests cannot be cancelled while your account is locked because you reported a change you did '
        || 'not make. Contact support to unlock it.';
    end if;
    if p_movement = 'withdraw' then
      return 'Withdrawals are locked because you reported a change you did not make. Contact support to '
        || 'unlock them.';
    end if;
    return 'Buying and selling are locked because you reported a change you did not make. Contact support to '
      || 'unlock them.';
  end if;
  -- After the lock, whose words ("this wasn't me") say more: its link freezes too.
  if p_movement <> 'deposit' and private.is_frozen(p_user_id) then
    if p_audience = 'admin' then
      return 'Frozen: this person froze their account. Nothing but deposits moves until it is unfrozen (by them '
        || 'after their delay, or by two admins).';
    end if;
    return 'Your account is frozen: no money leaves and nothing is bought or sold until you unfreeze it.';
  end if;
  if p_movement <> 'withdraw' then
    return null;
  end if;
  select * into hold from private.security_hold_until(p_user_id);
  if not found then
    return null;
  end if;
  reason := case hold.change
    when 'password' then 'password was changed'
    when 'email' then 'e-mail address was changed'
    when 'factor_added' then 'two-factor authentication was added'
    else 'two-factor authentication was removed'
  end;
  if p_audience = 'admin' then
    return format(
      'On security hold until %s because their %s. No money leaves until then unless an admin ends the hold on '
        || 'Settings.',
      to_char(hold.hold_until at time zone 'UTC', 'FMDD Mon YYYY, HH24:MI "UTC"'),
      reason
    );
  end if;
  return format(
    'Withdrawals are on hold until %s because %s. To end the hold sooner, contact support.',
    to_char(hold.hold_until at time zone 'UTC', 'FMDD Mon YYYY, HH24:MI "UTC"'),
    case hold.change
      when 'password' then 'your password was changed'
      when 'email' then 'your e-mail address was changed'
      when 'factor_added' then 'two-factor authentication was added to your account'
      else 'two-factor authentication was removed from your account'
    end
  );
end;
$$;
comment on function private.money_gate(uuid, text, text) is
  'The one rule of a person''s state for every movement of money or coins (deposit, buy, sell, withdraw, and a '
  'person cancelling their request): null when it may move, else why not, worded for the admin (default) or the '
  'person. A freeze (the person''s own, or the "this wasn''t me" link''s) and a lock stop all but deposits; a '
  'security hold stops money leaving (withdrawals), never a cancellation (which keeps the money in).';
revoke execute on function private.money_gate(uuid, text, text) from public;
-- The admin queues (security_invoker views) show the reason on each row.
grant execute on function private.money_gate(uuid, text, text) to authenticated;

create function private.assert_money_gate(p_user_id uuid, p_movement text, p_audience text)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  refusal text := private.money_gate(p_user_id, p_movement, p_audience);
begin
  if refusal is not null and p_audience = 'admin' then
    raise exception 'Not approved. %', refusal using errcode = 'P0001';
  elsif refusal is not null then
    raise exception '%', refusal using errcode = 'P0001';
  end if;
end;
$$;
comment on function private.assert_money_gate(uuid, text, text) is
  'Raises the money gate''s refusal (P0001, for an admin after "Not approved.") when the person''s state stops '
  'this movement.';
revoke execute on function private.assert_money_gate(uuid, text, text) from public;

create function private.consult_money_gate_for_request() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.assert_money_gate(new.user_id, tg_argv[0], 'person');
  return new;
end;
$$;
comment on function private.consult_money_gate_for_request() is
  'Refuses a new buy or sell request the money gate stops (the movement is the trigger''s argument).';
revoke execute on function private.consult_money_gate_for_request() from public;

create trigger consult_money_gate_before_insert
  before insert on public.buy_requests
  for each row execute function private.consult_money_gate_for_request('buy');
comment on trigger consult_money_gate_before_insert on public.buy_requests is
  'A locked person cannot ask to buy.';
create function private.assert_not_own_account(p_user_id uuid) returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if p_user_id = auth.uid() then
    raise exception 'This is your own account: another admin must decide this' using errcode = 'P0001';
  end if;
end;
$$;
comment on function private.assert_not_own_account(uuid) is
  'Maker-checker: refuses an admin deciding a request of, or a deposit to, their own account.';

-- Entries: whatever writes a complete entry (an approval, a deposit's completion, an operator) asks the gate.
-- The admin reads the refusal. The ledger's own rule also says no one completes an entry to themselves: every
-- complete entry is an admin's decision (security-definer RPCs keep the caller's auth.uid()), and no one
-- checks their own (maker-checker, 20261127000120_maker_checker.sql).
create function private.consult_money_gate_for_entry() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if btrim(new.status) <> 'complete' or (tg_op = 'UPDATE' and old.status = 'complete') then
    return new;
  end if;
  perform private.assert_not_own_account(new.user_id);
  perform private.assert_money_gate(new.user_id, new.type::text, 'admin');
  return new;
end;
$$;
comment on function private.consult_money_gate_for_entry() is
  'Refuses a complete ledger entry the money gate stops, or one an admin would complete for themselves.';
revoke execute on function private.consult_money_gate_for_entry() from public;

create trigger consult_money_gate_before_write
  before insert or update of status on public.transactions
  for each row execute function private.consult_money_gate_for_entry();
comment on trigger consult_money_gate_before_write on public.transactions is
  'Every entry that is or becomes complete passes the money gate, whichever path writes it.';

create function public.my_money_restrictions()
returns table (withdrawals text, buying_and_selling text, hold_until timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select gate.withdrawals, gate.buying_and_selling, hold.hold_until
  from (
    select
      private.money_gate((select auth.uid()), 'withdraw', 'person') as withdrawals,
      private.money_gate((select auth.uid()), 'buy', 'person') as buying_and_selling
  ) as gate
  left join private.security_hold_until((select auth.uid())) as hold on true
  where (select auth.uid()) is not null
    and (select private.session_is_aal2() or not private.has_verified_factor())
    and (gate.withdrawals is not null or gate.buying_and_selling is not null);
$$;
comment on function public.my_money_restrictions() is
  'The signed-in person''s own lock or security hold, in the money gate''s words for them: why withdrawals, and '
  'buying and selling, are refused now (null when allowed), and until when a hold runs. No row when nothing is '
  'refused, and, as their money, none at aal1 once they have a verified factor.';
revoke execute on function public.my_money_restrictions() from public, anon, authenticated, service_role;
grant execute on function public.my_money_restrictions() to authenticated;
