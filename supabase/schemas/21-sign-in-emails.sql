-- A new sign-in is e-mailed, with the "this wasn't me" link, as security changes are.
--
-- Which sign-ins count: every new row in auth.sessions but a person's very first one. Auth writes a session
-- row only when someone signs in (a password, a mailed link, a recovery link); a refresh rotates the token of
-- the same session and a verified second factor raises the same session to aal2, so neither writes a row.
-- The first session a person ever has is the one sign-up makes (at once, or through the confirmation link
-- when e-mails are confirmed): telling them about it would only teach them to ignore these mails.
--
-- The trigger runs inside Auth's sign-in, so it stays cheap: one primary-key insert to know whether the
-- person signed in before, then two inserts (the notification, the outbox row). The mail itself is sent
-- later by the send-security-emails function.

create table private.signed_in_people (
  user_id uuid primary key references auth.users (id) on delete cascade,
  first_signed_in_at timestamptz not null default now()
);
comment on table private.signed_in_people is
  'People who have had a session: their first one (sign-up''s own) is not notified, every later one is.';
comment on column private.signed_in_people.first_signed_in_at is 'When the person''s first session began.';
revoke all on table private.signed_in_people from public, anon, authenticated, service_role;
create function private.format_utc(at timestamptz) returns text
language sql
immutable
set search_path = ''
as $$
  select to_char(at at time zone 'UTC', 'FMDD Mon YYYY, HH24:MI "UTC"');
$$;
comment on function private.format_utc(timestamptz) is 'A moment as the e-mails write it: 24 Nov 2026, 13:20 UTC.';
revoke execute on function private.format_utc(timestamptz) from public;
create function private.queue_security_email(
  user_id uuid,
  subject text,
  body text,
  action_text text default null,
  action_path text default null,
  not_before timestamptz default null,
  with_not_me_link boolean default true
) returns uuid
language sql
security definer
set search_path = ''
as $$
  insert into private.security_emails (
    user_id, recipient, subject, body, action_text, action_path, not_before, not_me_token
  )
  select users.id, users.email, queue_security_email.subject, queue_security_email.body,
    queue_security_email.action_text, queue_security_email.action_path, queue_security_email.not_before,
    case when queue_security_email.with_not_me_link then gen_random_uuid() end
  from auth.users
  where users.id = queue_security_email.user_id and users.email is not null and users.email_confirmed_at is not null
  returning id;
$$;
comment on function private.queue_security_email(uuid, text, text, text, text, timestamptz, boolean) is
  'Queues an e-mail to the person''s address if they confirmed it (none otherwise: an unproven address may be '
  'anyone''s), with an optional link of its own (action_text before the app''s action_path), sent from '
  'not_before (null: at once); answers its id (null when none was queued). send-security-emails adds the '
  '"this wasn''t me" link unless with_not_me_link is false (a mail about no change to the account, such as a '
  'price alert).';
revoke execute on function private.queue_security_email(uuid, text, text, text, text, timestamptz, boolean) from public;
