-- Self-service freeze (supabase/schemas/24-protections.sql): the person (or the "this wasn't me" link) freezes
-- the account; the money gate stops all but deposits, security settings stay as they are, other sessions end.
-- Unfreezing waits the person's delay (e-mailed at its start and, through a mail held until then, at its end),
-- or two admins confirm it (second_approvals, whatever the amount).

alter table private.security_emails add column not_before timestamptz;
comment on column private.security_emails.not_before is
  'Sent only from then on (the end of an unfreeze''s delay); null: at once. Deleted unsent when it no longer holds.';

create or replace function public.claim_security_emails()
returns table (
  id uuid, recipient text, subject text, body text, not_me_token uuid, action_text text, action_path text
)
language sql
security definer
set search_path = ''
as $$
  with claimable as (
    select emails.id from private.security_emails as emails
    where emails.sent_at is null and (emails.claimed_until is null or emails.claimed_until < now())
      and (emails.not_before is null or emails.not_before <= now())
    order by emails.created_at
    limit 20
    for update skip locked
  )
  update private.security_emails as emails
  set claimed_until = now() + interval '5 minutes'
  from claimable
  where emails.id = claimable.id
  returning emails.id, emails.recipient, emails.subject, emails.body, emails.not_me_token, emails.action_text,
    emails.action_path;
$$;

drop function private.queue_security_email(uuid, text, text, text, text);
create function private.queue_security_email(
  user_id uuid,
  subject text,
  body text,
  action_text text default null,
  action_path text default null,
  not_before timestamptz default null
) returns uuid
language sql
security definer
set search_path = ''
as $$
  insert into private.security_emails (user_id, recipient, subject, body, action_text, action_path, not_before)
  select users.id, users.email, queue_security_email.subject, queue_security_email.body,
    queue_security_email.action_text, queue_security_email.action_path, queue_security_email.not_before
  from auth.users
  where users.id = queue_security_email.user_id and users.email is not null and users.email_confirmed_at is not null
  returning id;
$$;

comment on function private.queue_security_email(uuid, text, text, text, text, timestamptz) is
  'Queues a security e-mail to the person''s address if they confirmed it (none otherwise: an unproven '
  'address may be anyone''s), with an optional link of its own (action_text before the app''s action_path), '
  'sent from not_before (null: at once); answers its id (null when none was queued). send-security-emails '
  'adds the "this wasn''t me" link.';

revoke execute on function private.queue_security_email(uuid, text, text, text, text, timestamptz) from public;

alter table public.notifications drop constraint notifications_kind_known;
alter table public.notifications add constraint notifications_kind_known check (kind in (
    'buy_request.approved', 'buy_request.rejected', 'sell_request.approved', 'sell_request.rejected',
    'withdraw_request.approved', 'withdraw_request.rejected', 'deposit.completed', 'security.password',
    'security.email', 'security.factor_added', 'security.factor_removed', 'security.sign_in',
    'security.withdrawals_locked', 'admin.person_locked', 'security.frozen', 'security.unfreeze_asked'
  ));

alter table public.second_approvals drop constraint second_approvals_target_known;
alter table public.second_approvals add constraint second_approvals_target_known
    check (target_table in ('buy_requests', 'sell_requests', 'withdraw_requests', 'transactions', 'account_freezes'));
comment on column public.second_approvals.target_table is
  'The table of the request or entry decided (account_freezes: an admin''s unfreeze of a person''s freeze).';

comment on column public.second_approvals.target_id is 'The request or entry decided, or the freeze ended (freeze_id).';

create function private.awaits_other_admin(p_target_table text, p_target_id uuid, p_amount numeric)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  proposal public.second_approvals;
begin
  select * into proposal from public.second_approvals
  where target_table = p_target_table and target_id = p_target_id
  for update;
  if not found then
    insert into public.second_approvals (target_table, target_id, amount, proposed_by)
    values (p_target_table, p_target_id, p_amount, (select auth.uid()));
    perform private.write_audit(
      'approval.propose', p_target_table, p_target_id, jsonb_build_object('amount', p_amount)
    );
    return true;
  end if;
  if proposal.proposed_by = (select auth.uid()) then
    raise exception 'You approved this already: it is awaiting a second admin' using errcode = 'P0001';
  end if;
  update public.second_approvals set confirmed_by = (select auth.uid()), confirmed_at = now()
  where target_table = p_target_table and target_id = p_target_id;
  perform private.write_audit(
    'approval.confirm',
    p_target_table,
    p_target_id,
    jsonb_build_object('amount', p_amount, 'proposed_by', proposal.proposed_by, 'proposed_at', proposal.proposed_at)
  );
  return false;
end;
$$;

comment on function private.awaits_other_admin(text, uuid, numeric) is
  'Maker-checker whatever the amount: true when this decision was only recorded as a proposal; false when it '
  'confirms another admin''s proposal and may go ahead (audited either way).';

revoke execute on function private.awaits_other_admin(text, uuid, numeric) from public;

create or replace function private.awaits_second_admin(p_target_table text, p_target_id uuid, p_amount numeric)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  if p_amount <= (select second_admin_above from public.transaction_limits) then
    return false;
  end if;
  return private.awaits_other_admin(p_target_table, p_target_id, p_amount);
end;
$$;

-- Self-service freeze. One button (or the "this wasn't me" link of a security e-mail) freezes the account: the
-- money gate stops everything but deposits (open withdrawals included), no security setting changes (password,
-- e-mail, factors, the address book, the delays), and every session but the one asking ends. Unfreezing asks
-- for the password and, with a factor, an aal2 session, then waits the delay the person chose beforehand (24
-- hours to 30 days), e-mailed when it starts and when it ends; or two admins unfreeze (maker-checker).

create table public.account_freezes (
  user_id uuid primary key references auth.users (id) on delete cascade,
  unfreeze_delay_hours integer not null default 24,
  freeze_id uuid,
  frozen_at timestamptz,
  frozen_by text,
  unfreeze_at timestamptz,
  unfreeze_email_id uuid references private.security_emails (id) on delete set null,
  constraint account_freezes_delay_range check (unfreeze_delay_hours between 24 and 720),
  constraint account_freezes_frozen_by_known check (frozen_by in ('person', 'not_me_link')),
  constraint account_freezes_frozen_whole check ((frozen_at is null) = (freeze_id is null)
    and (frozen_at is null) = (frozen_by is null))
);
comment on table public.account_freezes is
  'Each person''s freeze: the unfreeze delay they chose (no row: 24 hours) and the current or latest freeze. '
  'Frozen while frozen_at is set and unfreeze_at has not come. Written only by the freeze functions.';
comment on column public.account_freezes.unfreeze_delay_hours is
  'How long an unfreeze waits after the person asks (24 hours to 30 days), chosen while not frozen.';
comment on column public.account_freezes.freeze_id is
  'This freeze''s own id (new at each freeze): two admins'' unfreeze is approved for it in second_approvals.';
comment on column public.account_freezes.frozen_at is 'When the account was frozen; null if it never was.';
comment on column public.account_freezes.frozen_by is
  'person (the account page''s button) or not_me_link (a security e-mail''s "this wasn''t me" link).';
comment on column public.account_freezes.unfreeze_at is
  'When the freeze ends: set when the person asks to unfreeze (now + delay) or two admins unfreeze (now).';
comment on column public.account_freezes.unfreeze_email_id is
  'The e-mail that tells the end of the delay, queued for then; withdrawn if the account is frozen again.';
create index account_freezes_unfreeze_email_id_idx on public.account_freezes (unfreeze_email_id);
comment on index public.account_freezes_unfreeze_email_id_idx is 'Deleting an e-mail clears the reference.';
alter table public.account_freezes enable row level security;
revoke all on table public.account_freezes from anon, authenticated, service_role;
grant select (user_id, unfreeze_delay_hours, frozen_at, frozen_by, unfreeze_at)
  on table public.account_freezes to authenticated;
create policy "People and admins can read the freeze"
  on public.account_freezes for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));
comment on policy "People and admins can read the freeze" on public.account_freezes is
  'The account page shows the person''s freeze and delay; admins at aal2 see whom they are asked to unfreeze.';

create function private.is_frozen(p_user_id uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select from public.account_freezes as current_freeze
    where current_freeze.user_id = p_user_id and current_freeze.frozen_at is not null
      and (current_freeze.unfreeze_at is null or current_freeze.unfreeze_at > now())
  );
$$;
comment on function private.is_frozen(uuid) is 'Whether the person''s account is frozen now (an unfreeze counts once its delay has passed).';
revoke execute on function private.is_frozen(uuid) from public;

create function private.assert_security_settings_open(p_user_id uuid) returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if private.is_frozen(p_user_id) then
    raise exception 'Your account is frozen: security settings cannot change until it is unfrozen'
      using errcode = 'P0001';
  end if;
end;
$$;
comment on function private.assert_security_settings_open(uuid) is
  'Refuses a change of a security setting (address book, allowlist, waits, delays, password, e-mail, factors) '
  'while the person''s account is frozen.';
revoke execute on function private.assert_security_settings_open(uuid) from public;

create function private.refuse_security_change_while_frozen() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  changed jsonb;
begin
  -- One function for auth.users (id) and auth.mfa_factors (user_id): the row is read as JSON.
  if tg_op = 'DELETE' then
    changed := to_jsonb(old);
    -- A factor enrolment GoTrue abandons (unverified) is cleaned up, not changed by the person.
    if changed ->> 'status' is distinct from 'verified' then
      return old;
    end if;
  else
    changed := to_jsonb(new);
  end if;
  perform private.assert_security_settings_open(coalesce(changed ->> 'user_id', changed ->> 'id')::uuid);
  return case when tg_op = 'DELETE' then old else new end;
end;
$$;
comment on function private.refuse_security_change_while_frozen() is
  'Refuses a password, e-mail or two-factor change of a frozen account, whoever makes it (Auth included).';
revoke execute on function private.refuse_security_change_while_frozen() from public;
create trigger refuse_while_frozen_before_update
  before update of encrypted_password, email on auth.users
  for each row when (
    old.encrypted_password is distinct from new.encrypted_password or old.email is distinct from new.email
  )
  execute function private.refuse_security_change_while_frozen();
comment on trigger refuse_while_frozen_before_update on auth.users is
  'A frozen account''s password and e-mail address do not change.';
create trigger refuse_while_frozen_before_write
  before insert or update or delete on auth.mfa_factors
  for each row execute function private.refuse_security_change_while_frozen();
comment on trigger refuse_while_frozen_before_write on auth.mfa_factors is
  'A frozen account''s two-factor methods are not added, verified or removed.';

create function private.freeze_account(p_user_id uuid, p_how text, p_keep_session uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  current_freeze public.account_freezes;
begin
  insert into public.account_freezes (user_id) values (p_user_id) on conflict (user_id) do nothing;
  select * into current_freeze from public.account_freezes where user_id = p_user_id for update;
  -- Frozen with no unfreeze pending: nothing to do. Freezing again during an unfreeze's delay cancels it.
  if current_freeze.frozen_at is not null and current_freeze.unfreeze_at is null then
    return;
  end if;
  if private.is_frozen(p_user_id) then
    delete from private.security_emails where id = current_freeze.unfreeze_email_id and sent_at is null;
    update public.account_freezes set unfreeze_at = null, unfreeze_email_id = null where user_id = p_user_id;
  else
    update public.account_freezes
    set freeze_id = gen_random_uuid(), frozen_at = now(), frozen_by = p_how, unfreeze_at = null,
      unfreeze_email_id = null
    where user_id = p_user_id;
  end if;
  delete from auth.sessions where user_id = p_user_id and id is distinct from p_keep_session;
  perform private.notify(
    p_user_id, 'security.frozen', 'Account frozen',
    'No money leaves and no security setting changes until you unfreeze your account. Your other sessions were '
      || 'signed out.'
  );
  perform private.queue_security_email(
    p_user_id, 'Account frozen',
    'Your account was frozen at ' || private.format_utc(now())
      || case p_how when 'not_me_link' then ' from the "this wasn''t me" link of a security e-mail' else '' end
      || '. No money leaves, no security setting changes and every other session was signed out. To unfreeze '
      || 'it, sign in and enter your password and a code; it unfreezes after the delay you chose.'
  );
  perform private.write_audit('account.freeze', 'profiles', p_user_id, jsonb_build_object('how', p_how), p_user_id);
end;
$$;
comment on function private.freeze_account(uuid, text, uuid) is
  'Freezes the person''s account (or cancels a pending unfreeze), ends every session but p_keep_session, '
  'notifies and e-mails them, audited.';
revoke execute on function private.freeze_account(uuid, text, uuid) from public;

create function public.freeze_my_account() returns void
language sql
security definer
set search_path = ''
as $$
  select private.freeze_account(
    (select auth.uid()), 'person', nullif((select auth.jwt()) ->> 'session_id', '')::uuid
  );
$$;
comment on function public.freeze_my_account() is
  'The account page''s Freeze button, from any session (aal1 too: freezing only takes rights away): freezes '
  'the caller''s account and signs out their other sessions.';
revoke execute on function public.freeze_my_account() from public, anon, authenticated, service_role;
grant execute on function public.freeze_my_account() to authenticated;

create function public.set_unfreeze_delay_hours(unfreeze_delay_hours integer) returns void
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  person uuid := (select auth.uid());
begin
  perform private.assert_aal2_for_money(person, (select auth.jwt()) ->> 'aal', 'change your security settings');
  perform private.assert_security_settings_open(person);
  if set_unfreeze_delay_hours.unfreeze_delay_hours is null
    or set_unfreeze_delay_hours.unfreeze_delay_hours not between 24 and 720 then
    raise exception 'The unfreeze delay must be between 24 hours and 30 days' using errcode = 'P0001';
  end if;
  insert into public.account_freezes (user_id, unfreeze_delay_hours)
  values (person, set_unfreeze_delay_hours.unfreeze_delay_hours)
  on conflict (user_id) do update set unfreeze_delay_hours = excluded.unfreeze_delay_hours;
  perform private.write_audit('account.unfreeze_delay', 'profiles', person,
    jsonb_build_object('hours', set_unfreeze_delay_hours.unfreeze_delay_hours), person);
end;
$$;
comment on function public.set_unfreeze_delay_hours(integer) is
  'The owner chooses, while not frozen, how long an unfreeze waits: 24 hours (default) to 30 days.';
revoke execute on function public.set_unfreeze_delay_hours(integer) from public, anon, authenticated, service_role;
grant execute on function public.set_unfreeze_delay_hours(integer) to authenticated;

create function public.ask_to_unfreeze(password text) returns timestamptz
language plpgsql
security definer
set search_path = ''
as $$
declare
  person uuid := (select auth.uid());
  current_freeze public.account_freezes;
  ends timestamptz;
begin
  select * into current_freeze from public.account_freezes where user_id = person for update;
  if not private.is_frozen(person) then
    raise exception 'Your account is not frozen' using errcode = 'P0001';
  end if;
  if current_freeze.unfreeze_at is not null then
    return current_freeze.unfreeze_at;
  end if;
  perform private.assert_aal2_for_money(person, (select auth.jwt()) ->> 'aal', 'unfreeze your account');
  if not exists (
    select from auth.users
    where id = person and encrypted_password is not null and encrypted_password <> ''
      and encrypted_password = extensions.crypt(ask_to_unfreeze.password, encrypted_password)
  ) then
    raise exception 'Wrong password' using errcode = 'P0001';
  end if;
  ends := now() + make_interval(hours => current_freeze.unfreeze_delay_hours);
  update public.account_freezes
  set unfreeze_at = ends,
    unfreeze_email_id = private.queue_security_email(
      person, 'Account unfrozen',
      'Your account was unfrozen at ' || private.format_utc(ends) || ', the end of the delay you chose. Money '
        || 'may leave again and security settings may change.',
      null, null, ends
    )
  where user_id = person;
  perform private.queue_security_email(
    person, 'Unfreezing your account',
    'Someone signed in to your account with your password and code asked at ' || private.format_utc(now())
      || ' to unfreeze it. It stays frozen until ' || private.format_utc(ends)
      || '. If this wasn''t you, freeze it again on the account page or use the link below.'
  );
  perform private.notify(person, 'security.unfreeze_asked', 'Unfreezing',
    'Your account stays frozen until ' || private.format_utc(ends) || '.');
  perform private.write_audit('account.unfreeze_ask', 'profiles', person, jsonb_build_object('until', ends), person);
  return ends;
end;
$$;
comment on function public.ask_to_unfreeze(text) is
  'The owner asks to unfreeze with their password (and, with a factor, from an aal2 session): it unfreezes '
  'after their chosen delay, e-mailed now and when it ends; answers when. Asking again changes nothing.';
revoke execute on function public.ask_to_unfreeze(text) from public, anon, authenticated, service_role;
grant execute on function public.ask_to_unfreeze(text) to authenticated;

create function public.unfreeze_by_admins(user_id uuid) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  current_freeze public.account_freezes;
begin
  perform private.assert_admin();
  perform private.assert_not_own_account(unfreeze_by_admins.user_id);
  select * into current_freeze from public.account_freezes
  where account_freezes.user_id = unfreeze_by_admins.user_id for update;
  if not private.is_frozen(unfreeze_by_admins.user_id) then
    raise exception 'This account is not frozen' using errcode = 'P0001';
  end if;
  if private.awaits_other_admin(
    'account_freezes', current_freeze.freeze_id,
    (select balance from public.profiles where id = unfreeze_by_admins.user_id)
  ) then
    return false;
  end if;
  delete from private.security_emails where id = current_freeze.unfreeze_email_id and sent_at is null;
  update public.account_freezes set unfreeze_at = now(), unfreeze_email_id = null
  where account_freezes.user_id = unfreeze_by_admins.user_id;
  perform private.queue_security_email(
    unfreeze_by_admins.user_id, 'Account unfrozen',
    'Support unfroze your account at ' || private.format_utc(now()) || ', confirmed by two admins. Money may '
      || 'leave again and security settings may change.'
  );
  perform private.write_audit('account.unfreeze', 'profiles', unfreeze_by_admins.user_id,
    jsonb_build_object('by', 'admins'));
  return true;
end;
$$;
comment on function public.unfreeze_by_admins(uuid) is
  'Admins only, maker-checker: the first admin''s call proposes (answers false), another admin''s confirms and '
  'unfreezes at once (answers true), e-mailed and audited. Never an admin''s own account.';
revoke execute on function public.unfreeze_by_admins(uuid) from public, anon, authenticated, service_role;
grant execute on function public.unfreeze_by_admins(uuid) to authenticated;

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
  if p_movement is null or p_movement not in ('deposit', 'buy', 'sell', 'withdraw') then
    raise exception 'Unknown movement of money: %', p_movement using errcode = 'P0001';
  end if;
  if p_movement <> 'deposit' and exists (select from private.withdrawal_locks where user_id = p_user_id) then
    if p_audience = 'admin' then
      return 'Locked: this person reported a change they did not make ("this wasn''t me"). Nothing but '
        || 'deposits moves until an admin ends the lock on Settings.';
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
  'The one rule of a person''s state for every movement of money or coins (deposit, buy, sell, withdraw): null '
  'when it may move, else why not, worded for the admin (default) or the person. A freeze (the person''s own, '
  'or the "this wasn''t me" link''s) and a lock stop all but deposits; a security hold stops money leaving '
  '(withdrawals).';

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
  where user_id = email.user_id and status not in ('approved', 'rejected');
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

create or replace function public.create_payout_destination(
  destination_id uuid,
  user_id uuid,
  session_id uuid,
  label text,
  withdraw_method text,
  last4 text,
  encrypted_data text,
  details_key_version smallint,
  details_digest text
)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  session_aal text := private.live_session_aal(
    create_payout_destination.user_id,
    create_payout_destination.session_id,
    'A destination can only be saved by the signed-in person for themselves'
  );
  wait integer := private.payout_wait_hours(create_payout_destination.user_id);
  created public.payout_destinations;
begin
  perform private.assert_aal2_for_money(create_payout_destination.user_id, session_aal, 'change your address book');
  perform private.assert_security_settings_open(create_payout_destination.user_id);
  if create_payout_destination.label is null or char_length(btrim(create_payout_destination.label)) not between 1 and 60
  then
    raise exception 'Label must be 1 to 60 characters' using errcode = 'P0001';
  end if;
  if create_payout_destination.withdraw_method is null
    or create_payout_destination.withdraw_method not in ('bank', 'card', 'wallet') then
    raise exception 'Withdraw method is required' using errcode = 'P0001';
  end if;
  if exists (
    select from public.payout_destinations as saved
    where saved.user_id = create_payout_destination.user_id and saved.removed_at is null
      and saved.details_digest = create_payout_destination.details_digest
  ) then
    raise exception 'This destination is already in your address book' using errcode = 'P0001';
  end if;
  insert into public.payout_destinations (
    id, user_id, label, withdraw_method, last4, encrypted_data, details_key_version, details_digest, usable_at
  )
  values (
    create_payout_destination.destination_id,
    create_payout_destination.user_id,
    btrim(create_payout_destination.label),
    create_payout_destination.withdraw_method::public.withdraw_method,
    create_payout_destination.last4,
    create_payout_destination.encrypted_data,
    create_payout_destination.details_key_version,
    create_payout_destination.details_digest,
    now() + make_interval(hours => wait)
  )
  returning * into created;
  perform private.queue_security_email(
    created.user_id,
    'New payout destination saved',
    format(
      'A new payout destination, "%s" (%s ending in %s), was added to your address book at %s. It can receive '
        || 'money from %s, after a waiting period of %s.',
      created.label,
      case created.withdraw_method when 'bank' then 'bank account' when 'card' then 'card' else 'crypto wallet' end,
      created.last4, private.format_utc(created.created_at), private.format_utc(created.usable_at),
      private.format_wait(wait)
    ),
    'Did not add it? Cancel it with one click:',
    '/address-book/cancel?token=' || created.cancel_token
  );
  perform private.write_audit(
    'payout_destination.create', 'payout_destinations', created.id,
    jsonb_build_object('withdraw_method', created.withdraw_method, 'last4', created.last4,
      'usable_at', created.usable_at),
    created.user_id
  );
  return created.id;
end;
$$;

create or replace function public.set_payout_allowlist(allowlist_on boolean) returns public.payout_protection
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  person uuid := (select auth.uid());
  settings public.payout_protection;
begin
  perform private.assert_aal2_for_money(person, (select auth.jwt()) ->> 'aal', 'change your address book');
  if set_payout_allowlist.allowlist_on is null then
    raise exception 'Say whether the allowlist is on or off' using errcode = 'P0001';
  end if;
  insert into public.payout_protection (user_id) values (person) on conflict (user_id) do nothing;
  select * into settings from public.payout_protection where user_id = person for update;
  if set_payout_allowlist.allowlist_on then
    -- Switching on (or back on, cancelling a pending switch-off) only narrows where money goes: at once.
    update public.payout_protection set allowlist_on = true, allowlist_off_at = null where user_id = person
      returning * into settings;
    perform private.write_audit('payout_allowlist.on', 'profiles', person, '{}'::jsonb, person);
    return settings;
  end if;
  perform private.assert_security_settings_open(person);
  if not private.payout_allowlist_in_force(person) then
    update public.payout_protection set allowlist_on = false, allowlist_off_at = null where user_id = person
      returning * into settings;
    return settings;
  end if;
  if settings.allowlist_off_at is not null then
    return settings;
  end if;
  update public.payout_protection set allowlist_off_at = now() + interval '48 hours' where user_id = person
    returning * into settings;
  perform private.queue_security_email(
    person,
    'Address book allowlist switching off',
    format('You asked at %s to switch off your address book allowlist. Until %s, withdrawals still go only to '
      || 'saved destinations; after that, to any account, card or wallet. To keep it on, switch it on again on '
      || 'the account page.', private.format_utc(now()), private.format_utc(settings.allowlist_off_at))
  );
  perform private.write_audit('payout_allowlist.off_asked', 'profiles', person,
    jsonb_build_object('off_at', settings.allowlist_off_at), person);
  return settings;
end;
$$;

create or replace function public.set_payout_wait_hours(wait_hours integer) returns public.payout_protection
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  person uuid := (select auth.uid());
  settings public.payout_protection;
begin
  perform private.assert_aal2_for_money(person, (select auth.jwt()) ->> 'aal', 'change your address book');
  perform private.assert_security_settings_open(person);
  if set_payout_wait_hours.wait_hours is null or set_payout_wait_hours.wait_hours not between 48 and 720 then
    raise exception 'The waiting period must be between 48 hours and 30 days' using errcode = 'P0001';
  end if;
  insert into public.payout_protection (user_id) values (person) on conflict (user_id) do nothing;
  update public.payout_protection
  set previous_wait_hours = private.payout_wait_hours(person),
    wait_hours = set_payout_wait_hours.wait_hours,
    wait_changed_at = now()
  where user_id = person
  returning * into settings;
  perform private.write_audit('payout_wait.update', 'profiles', person,
    jsonb_build_object('old', settings.previous_wait_hours, 'new', settings.wait_hours), person);
  return settings;
end;
$$;
