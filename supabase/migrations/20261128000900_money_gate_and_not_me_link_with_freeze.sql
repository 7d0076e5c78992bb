-- The freeze (20261128000310) and cancellations (20261128000510) each redefined the money gate and the
-- "this wasn't me" link from the versions before them; these are the definitions with both: a freeze stops
-- what a lock stops, a cancellation passes a hold, and the link freezes as well as locks.
create or replace function private.money_gate(p_user_id uuid, p_movement text, p_audience text default 'admin')
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

create or replace function public.report_not_me(token uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  email private.security_emails;
  held integer;
  person public.profiles;
begin
  select * into email from private.security_emails
  where not_me_token = report_not_me.token and created_at > now() - interval '30 days';
  if not found then
    raise exception 'This link is invalid or has expired' using errcode = 'P0001';
  end if;
  -- The link also freezes the account, ending every session: whoever changed what was reported is signed out.
  perform private.freeze_account(email.user_id, 'not_me_link', null);
  insert into private.withdrawal_locks (user_id, security_email_id)
  values (email.user_id, email.id)
  on conflict (user_id) do nothing;
  if not found then
    return;
  end if;
  select count(*) into held from public.withdraw_requests
  where user_id = email.user_id and status not in ('approved', 'rejected', 'cancelled');
  select * into person from public.profiles where id = email.user_id;
  perform private.notify(
    email.user_id,
    'security.withdrawals_locked',
    'Withdrawals locked',
    'You reported a change you did not make. Change your password and contact support to unlock withdrawals.'
      || case when held > 0 then format(' Your %s open withdrawal%s will not be paid while locked.', held,
        case when held = 1 then '' else 's' end) else '' end
  );
  perform private.notify(
    admins.id,
    'admin.person_locked',
    'Account locked',
    format(
      '%s reported a change they did not make. Their %s open withdrawal%s cannot be approved until the lock is '
        || 'ended on Settings.',
      coalesce(nullif(person.full_name, ''), person.email), held, case when held = 1 then '' else 's' end
    )
  )
  from public.profiles as admins
  where admins.role = 'admin';
  perform private.write_audit(
    'withdrawals.lock', 'profiles', email.user_id,
    jsonb_build_object('subject', email.subject, 'open_withdrawals', held), email.user_id
  );
end;
$$;
comment on function public.report_not_me(uuid) is
  'The "this wasn''t me" link of a security e-mail (valid 30 days, signed in or not): freezes the account (every '
  'session ends) and locks the person''s money at once (the money gate stops everything but deposits, open '
  'withdrawals included), tells them and every admin, audited. Only an admin lifts the lock (end_security_hold).';
