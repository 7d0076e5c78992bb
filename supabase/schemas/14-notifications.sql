-- Notifications: what happened to a person's account and money, written by triggers where it happens
-- (so no code path can forget one), read live through Realtime. Security changes also go out by e-mail
-- through one seam, an outbox the send-security-emails Edge Function drains; each such e-mail carries a
-- "this wasn't me" link that locks the person's withdrawals at once, until an admin lifts the lock.

create function private.is_notification_kind(p_kind text) returns boolean
language plpgsql
immutable
set search_path = ''
as $$
begin
  return p_kind in (
    'buy_request.approved', 'buy_request.rejected', 'sell_request.approved', 'sell_request.rejected',
    'withdraw_request.approved', 'withdraw_request.rejected', 'deposit.completed', 'security.password',
    'security.email', 'security.factor_added', 'security.factor_removed', 'security.sign_in',
    'security.withdrawals_locked', 'admin.person_locked', 'security.frozen', 'security.unfreeze_asked',
    'recurring_buy.placed', 'recurring_buy.skipped', 'price_alert.triggered'
  );
end;
$$;
comment on function private.is_notification_kind(text) is
  'Whether a notification kind is one the app writes and shows (notifications_kind_known).';

create table public.notifications (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  kind text not null,
  title text not null,
  body text not null,
  created_at timestamptz not null default now(),
  read_at timestamptz,
  constraint notifications_kind_known check (private.is_notification_kind(kind))
);
comment on table public.notifications is
  'What happened to a person''s account and money, newest first: written by triggers only; the owner reads them '
  'and marks them read.';
comment on column public.notifications.kind is 'What happened, as <object>.<event>; security.* kinds are also e-mailed.';
comment on column public.notifications.title is 'The headline the bell lists.';
comment on column public.notifications.body is 'One sentence with the details (amounts, address).';
comment on column public.notifications.read_at is 'When the owner marked it read; null while unread.';
create index notifications_user_id_created_at_idx on public.notifications (user_id, created_at desc);
comment on index public.notifications_user_id_created_at_idx is 'A person''s notifications, newest first.';
alter table public.notifications enable row level security;
alter table public.notifications replica identity full;
alter publication supabase_realtime add table public.notifications;
revoke all on table public.notifications from anon, authenticated, service_role;
grant select, update (read_at) on table public.notifications to authenticated;
create policy "People can read their own notifications"
  on public.notifications for select to authenticated
  using (user_id = (select auth.uid()));
comment on policy "People can read their own notifications" on public.notifications is
  'Notifications are private to their person; admins read the audit log instead.';
create policy "People can mark their own notifications read"
  on public.notifications for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));
comment on policy "People can mark their own notifications read" on public.notifications is
  'Only read_at is granted: the owner marks read, never rewrites what happened.';
create policy "Notifications are read at aal2 or without a factor"
  on public.notifications as restrictive for all to authenticated
  using ((select private.session_is_aal2()) or not (select private.has_verified_factor()))
  with check ((select private.session_is_aal2()) or not (select private.has_verified_factor()));
comment on policy "Notifications are read at aal2 or without a factor" on public.notifications is
  'A person with a verified factor reads and marks their notifications (amounts, sign-in addresses) only at '
  'aal2: a log-in left at the code step sees none.';

create function private.notify(p_user_id uuid, p_kind text, p_title text, p_body text) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.notifications (user_id, kind, title, body) values (p_user_id, p_kind, p_title, p_body);
end;
$$;
comment on function private.notify(uuid, text, text, text) is
  'Adds a notification (from triggers on rows of a person who exists: a deletion cascades, it writes none).';
revoke execute on function private.notify(uuid, text, text, text) from public;
create function private.notify_request_decision() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  what text := case tg_table_name when 'buy_requests' then 'buy_request' else 'withdraw_request' end;
  decision text := new.status::text;
  because text := case when new.rejection_reason is not null then format(' Reason: %s', new.rejection_reason) end;
begin
  perform private.notify(
    new.user_id,
    what || '.' || decision,
    case what when 'buy_request' then 'Buy request ' else 'Withdrawal ' end || decision,
    case what
      -- Read from the row as JSON: a withdraw request has no cryptocurrency column to name.
      when 'buy_request' then format('Your request to buy $%s of %s was %s.',
        private.format_usd(new.amount), initcap(to_jsonb(new) ->> 'cryptocurrency'), decision)
      else format('Your withdrawal of $%s was %s.', private.format_usd(new.amount), decision)
    end || coalesce(because, '')
  );
  return null;
end;
$$;
comment on function private.notify_request_decision() is
  'Tells the person their buy or withdraw request was approved or rejected (with the admin''s reason).';
revoke execute on function private.notify_request_decision() from public;
create trigger notify_decision_after_update
  after update of status on public.buy_requests
  for each row when (old.status is distinct from new.status and new.status in ('approved', 'rejected'))
  execute function private.notify_request_decision();
comment on trigger notify_decision_after_update on public.buy_requests is 'A decided buy request is notified.';
create trigger notify_decision_after_update
  after update of status on public.withdraw_requests
  for each row when (old.status is distinct from new.status and new.status in ('approved', 'rejected'))
  execute function private.notify_request_decision();
comment on trigger notify_decision_after_update on public.withdraw_requests is 'A decided withdrawal is notified.';
create function private.notify_deposit_completed() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.notify(
    new.user_id,
    'deposit.completed',
    'Deposit completed',
    format('$%s was added to your balance.', private.format_usd(new.amount))
  );
  return null;
end;
$$;
comment on function private.notify_deposit_completed() is 'Tells the person a deposit reached their balance.';
revoke execute on function private.notify_deposit_completed() from public;
create trigger notify_deposit_after_insert
  after insert on public.transactions
  for each row when (new.type = 'deposit' and new.status = 'complete')
  execute function private.notify_deposit_completed();
comment on trigger notify_deposit_after_insert on public.transactions is 'A deposit written complete is notified.';
create trigger notify_deposit_after_update
  after update of status on public.transactions
  for each row when (new.type = 'deposit' and new.status = 'complete' and old.status is distinct from 'complete')
  execute function private.notify_deposit_completed();
comment on trigger notify_deposit_after_update on public.transactions is 'A deposit completed by an admin is notified.';
-- The e-mail seam: one outbox row per security e-mail, sent by the send-security-emails function.
--
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
create table private.security_emails (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  recipient text not null,
  subject text not null,
  body text not null,
  not_me_token uuid default gen_random_uuid() unique,
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  claimed_until timestamptz,
  action_text text,
  action_path text,
  not_before timestamptz,
  constraint security_emails_action_whole check ((action_text is null) = (action_path is null)),
  constraint security_emails_action_path_in_app check (action_path ~ '^/[A-Za-z0-9/_?=&.-]*$')
);
comment on table private.security_emails is
  'Outbox of the app''s e-mails (security e-mails, and price alerts): written with the change or price that '
  'caused them, claimed and sent once by the '
  'send-security-emails Edge Function (again only when a sender died mid-send). Not reachable through the '
  'API but by the function''s RPCs.';
comment on column private.security_emails.not_me_token is
  'The secret of the e-mail''s "this wasn''t me" link (report_not_me), valid for 30 days; null for a mail about '
  'no change to the account (a price alert), which has no such link.';
comment on column private.security_emails.action_text is
  'The words before the e-mail''s own link (a new destination''s cancel link); null when it has none.';
comment on column private.security_emails.action_path is 'The path of that link in the app (the site URL is the function''s).';
comment on column private.security_emails.not_before is
  'Sent only from then on (the end of an unfreeze''s delay); null: at once. Deleted unsent when it no longer holds.';
comment on column private.security_emails.sent_at is 'When the provider accepted it; null while waiting.';
comment on column private.security_emails.claimed_until is
  'A sender is sending it until then (claim_security_emails); after that, another sender may try again.';
create index security_emails_user_id_idx on private.security_emails (user_id);
comment on index private.security_emails_user_id_idx is 'Deleting a person deletes their e-mails.';
create index security_emails_unsent_idx on private.security_emails (created_at) where sent_at is null;
comment on index private.security_emails_unsent_idx is 'What the sending function has still to send.';
revoke all on table private.security_emails from public, anon, authenticated, service_role;
-- The lock names the e-mail whose link set it; the locks (12-security-hold.sql) are defined before the outbox.
alter table private.withdrawal_locks
  add constraint withdrawal_locks_security_email_id_fkey
    foreign key (security_email_id) references private.security_emails (id) on delete set null;
create function private.notify_security_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  title text := case new.change
    when 'password' then 'Password changed'
    when 'email' then 'E-mail address changed'
    when 'factor_added' then 'Two-factor authentication added'
    else 'Two-factor authentication removed'
  end;
begin
  perform private.notify(
    new.user_id,
    'security.' || new.change,
    title,
    'New withdrawals wait for the security hold. If this wasn''t you, use the link in the e-mail we sent to lock '
      || 'your withdrawals, and contact support.'
  );
  -- An e-mail change is mailed to the old address by record_account_change, which still knows it.
  if new.change <> 'email' then
    perform private.queue_security_email(
      new.user_id,
      title,
      title || ' on your account at ' || private.format_utc(new.changed_at)
        || '. New withdrawals wait for the security hold.'
    );
  end if;
  return null;
end;
$$;
comment on function private.notify_security_change() is
  'Each security change (a new hold) notifies the person and queues the security e-mail with its '
  '"this wasn''t me" link.';
revoke execute on function private.notify_security_change() from public;
create trigger notify_security_change_after_write
  after insert or update of changed_at on private.security_holds
  for each row execute function private.notify_security_change();
comment on trigger notify_security_change_after_write on private.security_holds is
  'Every security change is notified and e-mailed.';
create function private.notify_sign_in() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  address text := coalesce(host(new.ip), 'an unknown address');
begin
  insert into private.signed_in_people (user_id) values (new.user_id) on conflict (user_id) do nothing;
  if found then
    -- The person's first session: sign-up's own.
    return null;
  end if;
  perform private.notify(
    new.user_id,
    'security.sign_in',
    'New sign-in',
    'Signed in from ' || address || '. Not you? Change your password.'
  );
  perform private.queue_security_email(
    new.user_id,
    'New sign-in',
    'New sign-in to your account at ' || private.format_utc(coalesce(new.created_at, now())) || ' from '
      || address || '. If it was you, there is nothing to do.'
  );
  return null;
end;
$$;
comment on function private.notify_sign_in() is
  'Tells the person about each new session but their first (sign-up''s own), in the app and by e-mail with '
  'the "this wasn''t me" link.';
revoke execute on function private.notify_sign_in() from public;
create trigger notify_sign_in_after_insert
  after insert on auth.sessions
  for each row execute function private.notify_sign_in();
comment on trigger notify_sign_in_after_insert on auth.sessions is
  'Every sign-in after the first is notified and e-mailed (a refresh or a verified factor writes no row).';
create function public.mark_security_email_sent(email_id uuid) returns void
language sql
security definer
set search_path = ''
as $$
  update private.security_emails set sent_at = now(), claimed_until = null where id = email_id and sent_at is null;
$$;
comment on function public.mark_security_email_sent(uuid) is
  'Service role only: records that the provider accepted the e-mail, so it is not sent again.';
revoke execute on function public.mark_security_email_sent(uuid) from public, anon, authenticated, service_role;
grant execute on function public.mark_security_email_sent(uuid) to service_role;
create function public.report_not_me(token uuid) returns void
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
revoke execute on function public.report_not_me(uuid) from public, anon, authenticated, service_role;
grant execute on function public.report_not_me(uuid) to anon, authenticated;
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
