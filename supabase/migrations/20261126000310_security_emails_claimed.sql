-- The security e-mail outbox is sent once even when two senders run at the same moment (a schedule's call
-- overlapping a slow one, or someone calling the function by hand): a sender claims the rows it will send
-- for a few minutes (a lease), rows another sender holds are skipped rather than waited for, and a row is
-- marked sent once the provider took it. A sender that crashes mid-send leaves its rows claimed until the
-- lease ends; the next sender then sends them again rather than lose them.
--
-- The trade-off, honestly: between senders the outbox is exactly-once. Between a sender and the provider it is
-- at-least-once: a crash after the provider accepted a mail but before it was marked sends it again after the
-- lease. The function sends each mail with an Idempotency-Key (its id), which Resend (and the local mailbox)
-- honour for 24 hours, so with them that retry is dropped by the provider; a provider without such keys would
-- deliver it twice.

alter table private.security_emails add column claimed_until timestamptz;
comment on column private.security_emails.claimed_until is
  'A sender is sending it until then (claim_security_emails); after that, another sender may try again.';
comment on table private.security_emails is
  'Outbox of security e-mails: written with the change that caused them, claimed and sent once by the '
  'send-security-emails Edge Function (again only when a sender died mid-send). Not reachable through the '
  'API but by the function''s RPCs.';

drop function public.pending_security_emails();

create function public.claim_security_emails()
returns table (id uuid, recipient text, subject text, body text, not_me_token uuid)
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
  returning emails.id, emails.recipient, emails.subject, emails.body, emails.not_me_token;
$$;
comment on function public.claim_security_emails() is
  'Service role only: claims the oldest 20 security e-mails no sender holds and answers them; the caller has '
  'five minutes to send them (20 mails at 10 s each at worst) before another sender may.';
revoke execute on function public.claim_security_emails() from public, anon, authenticated, service_role;
grant execute on function public.claim_security_emails() to service_role;

create function public.release_security_email(email_id uuid) returns void
language sql
security definer
set search_path = ''
as $$
  update private.security_emails set claimed_until = null where id = email_id and sent_at is null;
$$;
comment on function public.release_security_email(uuid) is
  'Service role only: the provider refused the e-mail, so the next sender tries it again without waiting for '
  'the lease.';
revoke execute on function public.release_security_email(uuid) from public, anon, authenticated, service_role;
grant execute on function public.release_security_email(uuid) to service_role;

create or replace function public.mark_security_email_sent(email_id uuid) returns void
language sql
security definer
set search_path = ''
as $$
  update private.security_emails set sent_at = now(), claimed_until = null where id = email_id and sent_at is null;
$$;
