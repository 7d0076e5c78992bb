-- The payout address book (supabase/schemas/24-protections.sql): saved destinations for every payout method,
-- usable after a waiting period, announced by an e-mail with a one-click cancel link, and an allowlist under
-- which money leaves only to them. Security e-mails may now carry a link of their own (the cancel link), and
-- withdrawals name the saved destination they pay.

alter table private.security_emails
  add column action_text text,
  add column action_path text,
  add constraint security_emails_action_whole check ((action_text is null) = (action_path is null)),
  add constraint security_emails_action_path_in_app check (action_path ~ '^/[A-Za-z0-9/_?=&.-]*$');
comment on column private.security_emails.action_text is
  'The words before the e-mail''s own link (a new destination''s cancel link); null when it has none.';
comment on column private.security_emails.action_path is 'The path of that link in the app (the site URL is the function''s).';

drop function public.claim_security_emails();
create function public.claim_security_emails()
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
comment on function public.claim_security_emails() is
  'Service role only: claims the oldest 20 security e-mails no sender holds and answers them; the caller has '
  'five minutes to send them (20 mails at 10 s each at worst) before another sender may.';
revoke execute on function public.claim_security_emails() from public, anon, authenticated, service_role;
grant execute on function public.claim_security_emails() to service_role;

drop function private.queue_security_email(uuid, text, text);
create function private.queue_security_email(
  user_id uuid, subject text, body text, action_text text default null, action_path text default null
) returns void
language sql
security definer
set search_path = ''
as $$
  insert into private.security_emails (user_id, recipient, subject, body, action_text, action_path)
  select users.id, users.email, queue_security_email.subject, queue_security_email.body,
    queue_security_email.action_text, queue_security_email.action_path
  from auth.users
  where users.id = queue_security_email.user_id and users.email is not null and users.email_confirmed_at is not null;
$$;
comment on function private.queue_security_email(uuid, text, text, text, text) is
  'Queues a security e-mail to the person''s address if they confirmed it (none otherwise: an unproven '
  'address may be anyone''s), with an optional link of its own (action_text before the app''s action_path); '
  'send-security-emails adds the "this wasn''t me" link.';
revoke execute on function private.queue_security_email(uuid, text, text, text, text) from public;

create function private.live_session_aal(p_user_id uuid, p_session_id uuid, p_refusal text) returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  session_aal text;
begin
  select coalesce(sessions.aal::text, 'aal1') into session_aal
  from auth.sessions
  where sessions.id = p_session_id
    and sessions.user_id = p_user_id
    and (sessions.not_after is null or sessions.not_after > now());
  if not found then
    raise exception '%', p_refusal using errcode = '42501';
  end if;
  return session_aal;
end;
$$;
comment on function private.live_session_aal(uuid, uuid, text) is
  'For the functions that act for a person with the service role: the assurance level of their live Auth '
  'session; refuses (42501, with p_refusal) a session that is not theirs or has ended.';
revoke execute on function private.live_session_aal(uuid, uuid, text) from public;

-- Protections a person controls. The password is the weak point of any account: someone who has it could
-- send the money to an account of their own. So a person keeps an address book of payout destinations (bank
-- accounts, cards and crypto wallets alike), each usable only after a waiting period that an e-mail with a
-- one-click cancel link announces, and may switch on an allowlist under which money leaves only to such a
-- destination; switching it off takes as long as a new destination does. The rules are here, so they hold for
-- every caller; the withdrawals function checks them as well, to answer first.

create table public.payout_protection (
  user_id uuid primary key references auth.users (id) on delete cascade,
  allowlist_on boolean not null default false,
  allowlist_off_at timestamptz,
  wait_hours integer not null default 48,
  previous_wait_hours integer,
  wait_changed_at timestamptz,
  constraint payout_protection_wait_hours_range check (wait_hours between 48 and 720),
  constraint payout_protection_previous_wait_hours_range check (previous_wait_hours between 48 and 720),
  constraint payout_protection_off_only_when_on check (allowlist_off_at is null or allowlist_on)
);
comment on table public.payout_protection is
  'A person''s payout protection settings (no row: the defaults, allowlist off and a 48-hour wait). Written only '
  'by set_payout_allowlist and set_payout_wait_hours; the owner reads it.';
comment on column public.payout_protection.allowlist_on is
  'Whether withdrawals go only to saved destinations that finished waiting (until allowlist_off_at, if set).';
comment on column public.payout_protection.allowlist_off_at is
  'When a switch-off the person asked for takes effect (48 hours after asking); null when none is pending.';
comment on column public.payout_protection.wait_hours is
  'How long a new destination waits before it is usable: 48 hours at least, 30 days at most.';
comment on column public.payout_protection.previous_wait_hours is
  'The wait before the latest change: a shorter wait takes effect only once the previous one has passed.';
comment on column public.payout_protection.wait_changed_at is 'When wait_hours last changed.';
alter table public.payout_protection enable row level security;
revoke all on table public.payout_protection from anon, authenticated, service_role;
grant select on table public.payout_protection to authenticated;
create policy "People can read their own payout protection"
  on public.payout_protection for select to authenticated
  using (user_id = (select auth.uid()));
comment on policy "People can read their own payout protection" on public.payout_protection is
  'The account page shows the person''s own settings; nobody writes them but the settings functions.';
create policy "Payout protection is read at aal2 or without a factor"
  on public.payout_protection as restrictive for select to authenticated
  using ((select private.session_is_aal2()) or not (select private.has_verified_factor()));
comment on policy "Payout protection is read at aal2 or without a factor" on public.payout_protection is
  'Like the person''s money: a log-in left at the code step sees nothing of it.';

create function private.payout_wait_hours(p_user_id uuid) returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select case
       when protection.wait_changed_at + make_interval(hours => protection.previous_wait_hours) > now()
         then greatest(protection.wait_hours, protection.previous_wait_hours)
       else protection.wait_hours
     end
     from public.payout_protection as protection where protection.user_id = p_user_id),
    48
  );
$$;
comment on function private.payout_wait_hours(uuid) is
  'The wait a destination saved now gets: the person''s choice (48 hours by default), or the longer previous '
  'one until that has passed, so shortening the wait is no faster than waiting.';
revoke execute on function private.payout_wait_hours(uuid) from public;

create function private.payout_allowlist_in_force(p_user_id uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select protection.allowlist_on and (protection.allowlist_off_at is null or protection.allowlist_off_at > now())
     from public.payout_protection as protection where protection.user_id = p_user_id),
    false
  );
$$;
comment on function private.payout_allowlist_in_force(uuid) is
  'Whether the person''s withdrawals go only to usable saved destinations now (a switch-off counts once its '
  '48 hours have passed).';
revoke execute on function private.payout_allowlist_in_force(uuid) from public;

create table public.payout_destinations (
  id uuid primary key,
  user_id uuid not null references public.profiles (id) on delete restrict,
  label text not null,
  withdraw_method public.withdraw_method not null,
  last4 text not null,
  encrypted_data text not null,
  details_key_version smallint not null,
  details_digest text not null,
  created_at timestamptz not null default now(),
  usable_at timestamptz not null,
  removed_at timestamptz,
  cancel_token uuid not null default gen_random_uuid() unique,
  constraint payout_destinations_label_length check (char_length(btrim(label)) between 1 and 60),
  constraint payout_destinations_last4_length check (char_length(last4) between 1 and 4),
  constraint payout_destinations_encrypted_data_length check (char_length(encrypted_data) <= 20000),
  constraint payout_destinations_details_key_version_positive check (details_key_version > 0),
  constraint payout_destinations_details_digest_hex check (details_digest ~ '^[0-9a-f]{64}$')
);
comment on table public.payout_destinations is
  'A person''s address book: saved payout destinations (bank account, card, crypto wallet), sealed by the '
  'payout-destinations function for this destination and person. Never edited: a change is a new destination '
  'that waits again. Removed ones stay (removed_at) as the withdrawals that used them do.';
comment on column public.payout_destinations.id is
  'Chosen by the payout-destinations function before sealing, and bound into the seal.';
comment on column public.payout_destinations.label is 'The person''s name for it ("Salary account").';
comment on column public.payout_destinations.last4 is
  'The last 4 characters of the account number, card number or wallet address, shown beside the label.';
comment on column public.payout_destinations.encrypted_data is
  'iv.ciphertext.wrapped-key of the details, bound to this destination, person and method; no column grant.';
comment on column public.payout_destinations.details_key_version is 'Version of the master key that sealed it.';
comment on column public.payout_destinations.details_digest is
  'HMAC of the details under a key derived from the master key: a withdrawal to this destination must carry '
  'the same digest, so its details cannot be swapped on the way. No column grant.';
comment on column public.payout_destinations.usable_at is 'When the waiting period ends and money may go there.';
comment on column public.payout_destinations.removed_at is
  'When the person removed it (or cancelled it from the e-mail); null while in the address book.';
comment on column public.payout_destinations.cancel_token is
  'The secret of the creation e-mail''s one-click cancel link (cancel_payout_destination); no column grant.';
create index payout_destinations_user_id_created_at_idx on public.payout_destinations (user_id, created_at desc);
comment on index public.payout_destinations_user_id_created_at_idx is 'A person''s address book, newest first.';
alter table public.payout_destinations enable row level security;
revoke all on table public.payout_destinations from anon, authenticated, service_role;
grant select (id, user_id, label, withdraw_method, last4, created_at, usable_at, removed_at)
  on table public.payout_destinations to authenticated;
grant select (id, user_id, withdraw_method, encrypted_data, details_key_version, usable_at, removed_at)
  on table public.payout_destinations to service_role;
create policy "People and admins can read saved destinations"
  on public.payout_destinations for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));
comment on policy "People and admins can read saved destinations" on public.payout_destinations is
  'The owner sees their address book (labels and last 4 characters, never the sealed details); admins at aal2 '
  'see it when a payout is questioned.';
create policy "Saved destinations are read at aal2 or without a factor"
  on public.payout_destinations as restrictive for select to authenticated
  using ((select private.session_is_aal2()) or not (select private.has_verified_factor()));
comment on policy "Saved destinations are read at aal2 or without a factor" on public.payout_destinations is
  'Like the person''s money: a log-in left at the code step sees nothing of it; admins work at aal2 anyway.';
alter table public.payout_destinations replica identity full;

create function private.refuse_destination_rewrite() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    raise exception 'Saved destinations are never deleted; remove them instead' using errcode = 'P0001';
  end if;
  if (new.id, new.user_id, new.label, new.withdraw_method, new.last4, new.encrypted_data, new.details_key_version,
      new.details_digest, new.created_at, new.usable_at, new.cancel_token)
    is distinct from (old.id, old.user_id, old.label, old.withdraw_method, old.last4, old.encrypted_data,
      old.details_key_version, old.details_digest, old.created_at, old.usable_at, old.cancel_token)
    or (old.removed_at is not null and new.removed_at is distinct from old.removed_at) then
    raise exception 'A saved destination cannot be changed: save a new one (it waits again)' using errcode = 'P0001';
  end if;
  return new;
end;
$$;
comment on function private.refuse_destination_rewrite() is
  'A saved destination''s details, wait and owner never change, whoever writes (the database owner included): '
  'only its removal is recorded, once.';
revoke execute on function private.refuse_destination_rewrite() from public;
create trigger refuse_rewrite_before_update_or_delete
  before update or delete on public.payout_destinations
  for each row execute function private.refuse_destination_rewrite();
comment on trigger refuse_rewrite_before_update_or_delete on public.payout_destinations is
  'Swapping the details of a saved destination is refused, so an approved wait always covers what is paid.';

create function private.format_wait(p_hours integer) returns text
language sql
immutable
set search_path = ''
as $$
  select case when p_hours % 24 = 0 then (p_hours / 24)::text || ' days' else p_hours::text || ' hours' end;
$$;
comment on function private.format_wait(integer) is 'A wait in the e-mails'' words: "2 days", "36 hours".';

create function public.create_payout_destination(
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
comment on function public.create_payout_destination(uuid, uuid, uuid, text, text, text, text, smallint, text) is
  'The payout-destinations function''s alone (service role), after it verified the person with Auth and sealed '
  'the details for this destination id: saves it for user_id through their live session (aal2 with a factor), '
  'usable after the person''s wait, and e-mails them a one-click cancel link. Refuses the same details twice.';
revoke execute on function public.create_payout_destination(uuid, uuid, uuid, text, text, text, text, smallint, text)
  from public, anon, authenticated;
grant execute on function public.create_payout_destination(uuid, uuid, uuid, text, text, text, text, smallint, text)
  to service_role;

create function private.remove_destination(p_destination public.payout_destinations, p_how text) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.payout_destinations set removed_at = now() where id = p_destination.id;
  perform private.queue_security_email(
    p_destination.user_id,
    'Payout destination removed',
    format('The payout destination "%s" (ending in %s) was removed from your address book at %s%s.',
      p_destination.label, p_destination.last4, private.format_utc(now()),
      case p_how when 'email_link' then ' with the cancel link of its e-mail' else '' end)
  );
  perform private.write_audit(
    'payout_destination.remove', 'payout_destinations', p_destination.id,
    jsonb_build_object('how', p_how, 'last4', p_destination.last4), p_destination.user_id
  );
end;
$$;
comment on function private.remove_destination(public.payout_destinations, text) is
  'Removes a saved destination (p_how: account_page or email_link), e-mails and audits it.';
revoke execute on function private.remove_destination(public.payout_destinations, text) from public;

create function public.remove_payout_destination(destination_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  saved public.payout_destinations;
begin
  perform private.assert_aal2_for_money((select auth.uid()), (select auth.jwt()) ->> 'aal', 'change your address book');
  select * into saved from public.payout_destinations
  where id = remove_payout_destination.destination_id and user_id = (select auth.uid()) and removed_at is null
  for update;
  if not found then
    raise exception 'No such destination in your address book' using errcode = 'P0001';
  end if;
  perform private.remove_destination(saved, 'account_page');
end;
$$;
comment on function public.remove_payout_destination(uuid) is
  'The owner removes one of their saved destinations (at aal2 with a factor). Removing only narrows where '
  'money may go, so a freeze does not stop it.';
revoke execute on function public.remove_payout_destination(uuid) from public, anon, authenticated, service_role;
grant execute on function public.remove_payout_destination(uuid) to authenticated;

create function public.cancel_payout_destination(token uuid) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  saved public.payout_destinations;
begin
  select * into saved from public.payout_destinations
  where cancel_token = cancel_payout_destination.token and created_at > now() - interval '30 days'
  for update;
  if not found then
    raise exception 'This link is invalid or has expired' using errcode = 'P0001';
  end if;
  if saved.removed_at is null then
    perform private.remove_destination(saved, 'email_link');
  end if;
  return saved.label;
end;
$$;
comment on function public.cancel_payout_destination(uuid) is
  'The one-click cancel link of a new destination''s e-mail (valid 30 days, signed in or not, as the mail may '
  'be read anywhere): removes it and answers its label; a second click changes nothing.';
revoke execute on function public.cancel_payout_destination(uuid) from public, anon, authenticated, service_role;
grant execute on function public.cancel_payout_destination(uuid) to anon, authenticated;

create function public.set_payout_allowlist(allowlist_on boolean) returns public.payout_protection
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
comment on function public.set_payout_allowlist(boolean) is
  'The owner switches their allowlist on (at once; it also cancels a pending switch-off) or asks to switch it '
  'off, which takes effect 48 hours later and is e-mailed with the "this wasn''t me" link.';
revoke execute on function public.set_payout_allowlist(boolean) from public, anon, authenticated, service_role;
grant execute on function public.set_payout_allowlist(boolean) to authenticated;

create function public.set_payout_wait_hours(wait_hours integer) returns public.payout_protection
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
comment on function public.set_payout_wait_hours(integer) is
  'The owner chooses how long new destinations wait: 48 hours to 30 days. A shorter wait takes effect once the '
  'one it replaces has passed.';
revoke execute on function public.set_payout_wait_hours(integer) from public, anon, authenticated, service_role;
grant execute on function public.set_payout_wait_hours(integer) to authenticated;

-- Withdrawals name the destination they pay (null: details typed into the form).
alter table public.withdraw_requests
  add column payout_destination_id uuid references public.payout_destinations (id) on delete restrict;
comment on column public.withdraw_requests.payout_destination_id is
  'The saved destination paid (its details were sealed again for this request); null when typed in the form.';
create index withdraw_requests_payout_destination_id_idx on public.withdraw_requests (payout_destination_id);
comment on index public.withdraw_requests_payout_destination_id_idx is 'Keeps the destination reference cheap to check.';

create function private.payout_destination_refusal(
  p_user_id uuid, p_destination_id uuid, p_method text
) returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  saved public.payout_destinations;
begin
  if p_destination_id is null then
    if private.payout_allowlist_in_force(p_user_id) then
      return 'Your address book allowlist is on: withdraw to a saved destination whose waiting period has ended';
    end if;
    return null;
  end if;
  select * into saved from public.payout_destinations where id = p_destination_id and user_id = p_user_id;
  if not found or saved.removed_at is not null then
    return 'This destination is not in your address book';
  end if;
  if saved.usable_at > now() then
    return format('This destination can receive money from %s', private.format_utc(saved.usable_at));
  end if;
  if saved.withdraw_method::text is distinct from p_method then
    return 'The withdraw method differs from the saved destination''s';
  end if;
  return null;
end;
$$;
comment on function private.payout_destination_refusal(uuid, uuid, text) is
  'Why a withdrawal may not go where it would (a destination still waiting, removed, someone else''s, or typed '
  'details under the allowlist), in the person''s words; null when it may.';
revoke execute on function private.payout_destination_refusal(uuid, uuid, text) from public;

create function private.check_payout_destination() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  refusal text := private.payout_destination_refusal(new.user_id, new.payout_destination_id, new.withdraw_method::text);
begin
  if refusal is not null then
    raise exception '%', refusal using errcode = 'P0001';
  end if;
  return new;
end;
$$;
comment on function private.check_payout_destination() is
  'Refuses a new withdrawal to a destination the address book does not allow, whoever inserts it.';
revoke execute on function private.check_payout_destination() from public;
create trigger check_payout_destination_before_insert
  before insert on public.withdraw_requests
  for each row execute function private.check_payout_destination();
comment on trigger check_payout_destination_before_insert on public.withdraw_requests is
  'With the allowlist on, money leaves only to usable saved destinations; a saved one only after its wait.';

create function public.my_payout_rules() returns table (allowlist_in_force boolean, wait_hours integer)
language sql
stable
security definer
set search_path = ''
as $$
  select private.payout_allowlist_in_force((select auth.uid())), private.payout_wait_hours((select auth.uid()))
  where (select auth.uid()) is not null;
$$;
comment on function public.my_payout_rules() is
  'The caller''s payout rules now: whether the allowlist is in force and the wait a new destination gets.';
revoke execute on function public.my_payout_rules() from public, anon, authenticated, service_role;
grant execute on function public.my_payout_rules() to authenticated;

drop function public.create_withdraw_request(uuid, uuid, uuid, numeric, text, text, smallint, text, uuid);
create function public.create_withdraw_request(
  request_id uuid,
  user_id uuid,
  session_id uuid,
  amount numeric,
  withdraw_method text,
  encrypted_data text,
  details_key_version smallint,
  details_digest text,
  idempotency_key uuid,
  payout_destination_id uuid default null
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
  session_aal text := private.live_session_aal(
    create_withdraw_request.user_id,
    create_withdraw_request.session_id,
    'A withdraw request can only be made by the signed-in person for themselves'
  );
  caller uuid;
  wallet public.wallet_balances;
  created public.withdraw_requests;
  answer public.created_withdraw_request;
  earlier jsonb;
  saved_digest text;
begin
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

  if create_withdraw_request.payout_destination_id is not null then
    -- The details sealed for this request must be the saved destination's, not a swap made on the way.
    select details_digest into saved_digest from public.payout_destinations
    where id = create_withdraw_request.payout_destination_id and user_id = caller;
    if saved_digest is distinct from create_withdraw_request.details_digest then
      raise exception 'The payout details differ from the saved destination''s' using errcode = 'P0001';
    end if;
  end if;
  insert into public.withdraw_requests (
    id, user_id, amount, withdraw_method, encrypted_data, details_key_version, payout_destination_id
  )
  values (
    create_withdraw_request.request_id,
    caller,
    create_withdraw_request.amount,
    create_withdraw_request.withdraw_method::public.withdraw_method,
    create_withdraw_request.encrypted_data,
    create_withdraw_request.details_key_version,
    create_withdraw_request.payout_destination_id
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
comment on function public.create_withdraw_request(uuid, uuid, uuid, numeric, text, text, smallint, text, uuid, uuid) is
  'The withdrawals Edge Function''s alone (service role), after it verified the person with Auth and sealed the '
  'details for this request id: acts for user_id only through their live Auth session session_id (at aal2 when '
  'they have a verified factor). Once per idempotency key; checks the limits and, under the person''s lock, the '
  'available balance; to a saved destination (payout_destination_id), that the details are its own (same '
  'digest). Returns the request without encrypted_data.';
revoke execute on function public.create_withdraw_request(uuid, uuid, uuid, numeric, text, text, smallint, text, uuid, uuid)
  from public, anon, authenticated;
grant execute on function public.create_withdraw_request(uuid, uuid, uuid, numeric, text, text, smallint, text, uuid, uuid)
  to service_role;
