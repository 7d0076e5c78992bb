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
  select case when p_hours = 24 then '1 day'
    when p_hours % 24 = 0 then (p_hours / 24)::text || ' days'
    else p_hours::text || ' hours' end;
$$;
comment on function private.format_wait(integer) is
  'A wait in the e-mails'' words: "1 day", "2 days", "36 hours".';

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
  chosen_before integer;
begin
  perform private.assert_aal2_for_money(person, (select auth.jwt()) ->> 'aal', 'change your address book');
  perform private.assert_security_settings_open(person);
  if set_payout_wait_hours.wait_hours is null or set_payout_wait_hours.wait_hours not between 48 and 720 then
    raise exception 'The waiting period must be between 48 hours and 30 days' using errcode = 'P0001';
  end if;
  insert into public.payout_protection (user_id) values (person) on conflict (user_id) do nothing;
  select wait_hours into chosen_before from public.payout_protection where user_id = person for update;
  update public.payout_protection
  set previous_wait_hours = private.payout_wait_hours(person),
    wait_hours = set_payout_wait_hours.wait_hours,
    wait_changed_at = now()
  where user_id = person
  returning * into settings;
  perform private.write_audit('payout_wait.update', 'profiles', person,
    jsonb_build_object('old', settings.previous_wait_hours, 'new', settings.wait_hours), person);
  if settings.wait_hours <> chosen_before then
    perform private.queue_security_email(
      person,
      'Address book waiting period changed',
      format('You changed at %s how long a new destination in your address book waits before it can receive '
        || 'money: from %s to %s.', private.format_utc(now()), private.format_wait(chosen_before),
        private.format_wait(settings.wait_hours))
      || case when settings.wait_hours < settings.previous_wait_hours then format(' Until %s, new destinations '
        || 'still wait %s.', private.format_utc(now() + make_interval(hours => settings.previous_wait_hours)),
        private.format_wait(settings.previous_wait_hours)) else '' end
    );
  end if;
  return settings;
end;
$$;
comment on function public.set_payout_wait_hours(integer) is
  'The owner chooses how long new destinations wait: 48 hours to 30 days. A shorter wait takes effect once the '
  'one it replaces has passed. A change is e-mailed (with the "this wasn''t me" link).';
revoke execute on function public.set_payout_wait_hours(integer) from public, anon, authenticated, service_role;
grant execute on function public.set_payout_wait_hours(integer) to authenticated;

-- Withdrawals name the destination they pay (null: details typed into the form); the column sits in
-- 04-requests.sql, where the migrations' order puts it, and its reference is added here, after the table.
alter table public.withdraw_requests
  add constraint withdraw_requests_payout_destination_id_fkey
  foreign key (payout_destination_id) references public.payout_destinations (id) on delete restrict;
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
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return exists (
    select from public.account_freezes as current_freeze
    where current_freeze.user_id = p_user_id and current_freeze.frozen_at is not null
      and (current_freeze.unfreeze_at is null or current_freeze.unfreeze_at > now())
  );
end;
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
  chosen_before integer;
begin
  perform private.assert_aal2_for_money(person, (select auth.jwt()) ->> 'aal', 'change your security settings');
  perform private.assert_security_settings_open(person);
  if set_unfreeze_delay_hours.unfreeze_delay_hours is null
    or set_unfreeze_delay_hours.unfreeze_delay_hours not between 24 and 720 then
    raise exception 'The unfreeze delay must be between 24 hours and 30 days' using errcode = 'P0001';
  end if;
  insert into public.account_freezes (user_id) values (person) on conflict (user_id) do nothing;
  select account_freezes.unfreeze_delay_hours into chosen_before
  from public.account_freezes where user_id = person for update;
  update public.account_freezes set unfreeze_delay_hours = set_unfreeze_delay_hours.unfreeze_delay_hours
  where user_id = person;
  perform private.write_audit('account.unfreeze_delay', 'profiles', person,
    jsonb_build_object('hours', set_unfreeze_delay_hours.unfreeze_delay_hours), person);
  if set_unfreeze_delay_hours.unfreeze_delay_hours <> chosen_before then
    perform private.queue_security_email(
      person,
      'Unfreeze delay changed',
      format('You changed at %s how long your account stays frozen after you ask to unfreeze it: from %s to %s.',
        private.format_utc(now()), private.format_wait(chosen_before),
        private.format_wait(set_unfreeze_delay_hours.unfreeze_delay_hours))
    );
  end if;
end;
$$;
comment on function public.set_unfreeze_delay_hours(integer) is
  'The owner chooses, while not frozen, how long an unfreeze waits: 24 hours (default) to 30 days. A change is '
  'e-mailed (with the "this wasn''t me" link).';
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
