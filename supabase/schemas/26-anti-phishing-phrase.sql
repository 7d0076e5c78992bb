-- The anti-phishing phrase: a few words a person chooses, printed at the top of every e-mail CoinVault sends
-- them (Auth's through supabase/templates/, which read it from the user metadata as {{ .Data.anti_phishing_phrase }},
-- and the security e-mails through claim_security_emails), so a phishing e-mail without it stands out.
-- It lives only in auth.users.raw_user_meta_data: GoTrue hands templates the user metadata and nothing else.
-- Only set_anti_phishing_phrase changes it (with the rules of every security setting); a sign-up or
-- `PUT /user` that names it leaves it as it was. Other people never see it: the metadata is in no table or
-- view the Data API serves, and the audit log records that it changed, not what it says.

create function private.keep_anti_phishing_phrase() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if current_setting('coinvault.anti_phishing_phrase_change', true) is not distinct from 'on' then
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
  'or blank it) leaves the stored one.';
revoke execute on function private.keep_anti_phishing_phrase() from public;

create trigger keep_anti_phishing_phrase_before_write
  before insert or update of raw_user_meta_data on auth.users
  for each row execute function private.keep_anti_phishing_phrase();
comment on trigger keep_anti_phishing_phrase_before_write on auth.users is
  'Only set_anti_phishing_phrase changes the phrase.';

create function public.set_anti_phishing_phrase(phrase text) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  person uuid := (select auth.uid());
  chosen text := nullif(btrim(set_anti_phishing_phrase.phrase), '');
begin
  if person is null then
    raise exception 'Sign in to set your anti-phishing phrase' using errcode = '42501';
  end if;
  perform private.assert_aal2_for_money(person, (select auth.jwt()) ->> 'aal', 'change your security settings');
  perform private.assert_security_settings_open(person);
  if chosen is not null and char_length(chosen) not between 4 and 40 then
    raise exception 'The anti-phishing phrase must be 4 to 40 characters' using errcode = 'P0001';
  end if;
  if chosen ~ '[[:cntrl:]]' then
    raise exception 'The anti-phishing phrase must be one line of text' using errcode = 'P0001';
  end if;
  perform set_config('coinvault.anti_phishing_phrase_change', 'on', true);
  update auth.users
  set raw_user_meta_data = case
      when chosen is null then coalesce(raw_user_meta_data, '{}'::jsonb) - 'anti_phishing_phrase'
      else coalesce(raw_user_meta_data, '{}'::jsonb) || jsonb_build_object('anti_phishing_phrase', chosen)
    end,
    updated_at = now()
  where id = person;
  perform set_config('coinvault.anti_phishing_phrase_change', 'off', true);
  perform private.write_audit('account.anti_phishing_phrase', 'profiles', person,
    jsonb_build_object('set', chosen is not null), person);
  perform private.queue_security_email(
    person,
    case when chosen is null then 'Anti-phishing phrase removed' else 'Anti-phishing phrase changed' end,
    case when chosen is null
      then 'Your anti-phishing phrase was removed at ' || private.format_utc(now())
        || '. E-mails from CoinVault no longer start with a phrase of yours.'
      else 'Your anti-phishing phrase was changed at ' || private.format_utc(now())
        || '. Every e-mail from CoinVault now starts with it.'
    end,
    null, null, null
  );
end;
$$;
comment on function public.set_anti_phishing_phrase(text) is
  'The signed-in person sets (4 to 40 characters, one line) or, with null or blanks, removes their '
  'anti-phishing phrase: not while frozen, at aal2 when they have a factor. Audited without the phrase; the '
  'person gets a security e-mail, which already shows the new phrase.';
revoke execute on function public.set_anti_phishing_phrase(text) from public, anon, authenticated, service_role;
grant execute on function public.set_anti_phishing_phrase(text) to authenticated;
