-- The security log records an anti-phishing phrase change (never its words): the event kind, and the trigger
-- that guards the phrase writes it (supabase/schemas/26-anti-phishing-phrase.sql, 27-security-log.sql).
alter table public.security_log drop constraint security_log_event_known;
alter table public.security_log add constraint security_log_event_known check (event in (
  'sign_in', 'session_ended', 'password', 'email', 'factor_added', 'factor_removed', 'hold_ended',
  'not_me_reported', 'lock_ended', 'destination_saved', 'destination_removed', 'allowlist_on',
  'allowlist_off_asked', 'payout_wait_changed', 'unfreeze_delay_changed', 'frozen', 'unfreeze_asked',
  'unfreeze_cancelled', 'unfrozen_by_admins', 'anti_phishing_phrase'
));
comment on column public.security_log.event is
  'What happened: sign_in, session_ended, password, email, factor_added, factor_removed, hold_ended, '
  'not_me_reported, lock_ended, destination_saved, destination_removed, allowlist_on, allowlist_off_asked, '
  'payout_wait_changed, unfreeze_delay_changed, frozen, unfreeze_asked, unfreeze_cancelled, unfrozen_by_admins, '
  'anti_phishing_phrase (changed or removed, never its words).';

create or replace function private.keep_anti_phishing_phrase() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if current_setting('coinvault.anti_phishing_phrase_change', true) is not distinct from 'on' then
    if tg_op = 'UPDATE' and (old.raw_user_meta_data ->> 'anti_phishing_phrase')
      is distinct from (new.raw_user_meta_data ->> 'anti_phishing_phrase') then
      -- The person's security log (admins read it too) says that it changed, never the words.
      perform private.log_security_event(new.id, 'anti_phishing_phrase',
        case when new.raw_user_meta_data ? 'anti_phishing_phrase' then 'Anti-phishing phrase changed'
          else 'Anti-phishing phrase removed' end);
    end if;
    return new;
  end if;
  if tg_op = 'UPDATE' and old.raw_user_meta_data ? 'anti_phishing_phrase' then
    new.raw_user_meta_data := coalesce(new.raw_user_meta_data, '{}'::jsonb)
      || jsonb_build_object('anti_phishing_phrase', old.raw_user_meta_data -> 'anti_phishing_phrase');
  else
    new.raw_user_meta_data := new.raw_user_meta_data - 'anti_phishing_phrase';
  end if;
  return new;
end;
$$;
comment on function private.keep_anti_phishing_phrase() is
  'Keeps the anti-phishing phrase in the user metadata as set_anti_phishing_phrase left it: a sign-up or an '
  'Auth update that names it (someone holding a session could otherwise copy a phrase into a phishing mail '
  'or blank it) leaves the stored one. A change through that function enters the security log, without the '
  'words.';
revoke execute on function private.keep_anti_phishing_phrase() from public;
