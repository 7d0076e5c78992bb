-- A change of the address book's waiting period or of the unfreeze delay is e-mailed, as asking to switch the
-- allowlist off is: each loosens (or tightens) a protection, and the person should hear of it from us.

-- "1 day", not "1 days", for the unfreeze delay's default.
create or replace function private.format_wait(p_hours integer) returns text
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

drop function public.set_payout_wait_hours(integer);
drop function public.set_unfreeze_delay_hours(integer);

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
