-- The anti-phishing phrase (supabase/schemas/26-anti-phishing-phrase.sql), and the security e-mails' claim
-- answers it with each mail (supabase/schemas/14-notifications.sql).
drop function public.claim_security_emails();
create function public.claim_security_emails()
returns table (
  id uuid, recipient text, subject text, body text, not_me_token uuid, action_text text, action_path text,
  anti_phishing_phrase text
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
    emails.action_path,
    (select users.raw_user_meta_data ->> 'anti_phishing_phrase' from auth.users where users.id = emails.user_id);
$$;
comment on function public.claim_security_emails() is
  'Service role only: claims the oldest 20 security e-mails no sender holds and answers them; the caller has '
  'five minutes to send them (20 mails at 10 s each at worst) before another sender may. Each comes with '
  'the person''s anti-phishing phrase as it is when sent (null: none), for the top of the mail.';
revoke execute on function public.claim_security_emails() from public, anon, authenticated, service_role;
grant execute on function public.claim_security_emails() to service_role;

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
