-- Each person's security log: every sign-in (device and address), session ended, password, e-mail and factor
-- change, address-book and payout-rule change, freeze and unfreeze, "this wasn't me" report and lock lifted,
-- anti-phishing phrase change (26-anti-phishing-phrase.sql), in
-- one list per person. Written only by triggers on the tables where those things happen, so no path (Auth's
-- endpoints, an RPC, an operator's statement) is left out; append-only and hash-chained per person with the
-- journal's machinery (ledger.refuse_rewrite, ledger.canonical_time, ledger.entry_hash), so a person can show
-- exactly what happened, and check it themselves: docs/architecture.md, "The security log".

create table public.security_log (
  user_id uuid not null,
  seq bigint not null,
  recorded_at timestamptz not null,
  event text not null,
  detail text not null,
  ip text,
  user_agent text,
  prev_hash bytea not null,
  hash bytea not null,
  primary key (user_id, seq),
  constraint security_log_seq_positive check (seq > 0),
  constraint security_log_hashes_are_sha256 check (octet_length(prev_hash) = 32 and octet_length(hash) = 32),
  constraint security_log_event_known check (event in (
    'sign_in', 'session_ended', 'password', 'email', 'factor_added', 'factor_removed', 'hold_ended',
    'not_me_reported', 'lock_ended', 'destination_saved', 'destination_removed', 'allowlist_on',
    'allowlist_off_asked', 'payout_wait_changed', 'unfreeze_delay_changed', 'frozen', 'unfreeze_asked',
    'unfreeze_cancelled', 'unfrozen_by_admins', 'anti_phishing_phrase'
  ))
);
comment on table public.security_log is
  'Each person''s security events, newest last by seq: a hash chain per person (each entry names the previous '
  'one''s hash), append-only. No foreign key: the log outlives the sign-in, as the audit log does.';
comment on column public.security_log.user_id is 'The person whose log this is.';
comment on column public.security_log.seq is 'Gapless position in the person''s chain, from 1.';
comment on column public.security_log.recorded_at is 'The start of the database transaction that wrote it.';
comment on column public.security_log.event is
  'What happened: sign_in, session_ended, password, email, factor_added, factor_removed, hold_ended, '
  'not_me_reported, lock_ended, destination_saved, destination_removed, allowlist_on, allowlist_off_asked, '
  'payout_wait_changed, unfreeze_delay_changed, frozen, unfreeze_asked, unfreeze_cancelled, unfrozen_by_admins, '
  'anti_phishing_phrase (changed or removed, never its words).';
comment on column public.security_log.detail is 'The event in the person''s words.';
comment on column public.security_log.ip is 'The address a sign-in or an ended session came from, when known.';
comment on column public.security_log.user_agent is 'The device (user agent) of a sign-in or an ended session.';
comment on column public.security_log.prev_hash is 'The previous entry''s hash; 32 zero bytes for the first.';
comment on column public.security_log.hash is
  'SHA-256 (ledger.entry_hash) of the entry''s canonical form (private.canonical_security_event).';
alter table public.security_log enable row level security;
revoke all on table public.security_log from anon, authenticated, service_role;
grant select on table public.security_log to authenticated;
create policy "People can read their own security log and admins everyone's"
  on public.security_log for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));
comment on policy "People can read their own security log and admins everyone's" on public.security_log is
  'The person reads their own log; admins at aal2 read it per person (a dispute, a support case).';
create policy "The security log is read at aal2 or without a factor"
  on public.security_log as restrictive for select to authenticated
  using ((select private.session_is_aal2()) or not (select private.has_verified_factor()));
comment on policy "The security log is read at aal2 or without a factor" on public.security_log is
  'Like the person''s money: a log-in left at the code step (a stolen password) sees nothing of it.';
create trigger refuse_rewrite_before_change before update or delete on public.security_log
  for each row execute function ledger.refuse_rewrite();
comment on trigger refuse_rewrite_before_change on public.security_log is
  'Append-only: entries are never changed or removed.';
create trigger refuse_truncate before truncate on public.security_log
  for each statement execute function ledger.refuse_rewrite();
comment on trigger refuse_truncate on public.security_log is 'The security log is never emptied.';
create trigger broadcast_change_after_write after insert on public.security_log
  for each row execute function private.broadcast_row_change('account', 'admin:queues');
comment on trigger broadcast_change_after_write on public.security_log is
  'A new entry is told on the person''s account topic, so their open log shows it, and on admin:queues, so an '
  'admin''s open view of that person''s log does.';

create table private.security_log_heads (
  user_id uuid primary key,
  seq bigint not null default 0,
  hash bytea not null default decode(repeat('00', 32), 'hex')
);
comment on table private.security_log_heads is
  'Each person''s last security log entry. A writer locks the person''s row until it commits, which serialises '
  'that person''s writers and keeps their sequence gapless.';
comment on column private.security_log_heads.seq is 'The last entry''s seq (0 before the first).';
comment on column private.security_log_heads.hash is 'The last entry''s hash (32 zero bytes before the first).';
revoke all on table private.security_log_heads from public, anon, authenticated, service_role;

-- The canonical form: the JSON text JSON.stringify gives for
--   ["coinvault-security-log-v1", user_id, seq, prev_hash_hex, recorded_at, event, detail, ip, user_agent]
-- recorded_at as ledger.canonical_time; ip and user_agent strings or null.
create function private.canonical_security_event(
  p_user_id uuid,
  p_seq bigint,
  p_prev_hash bytea,
  p_recorded_at timestamptz,
  p_event text,
  p_detail text,
  p_ip text,
  p_user_agent text
) returns text
language sql
immutable
set search_path = ''
as $$
  select '["coinvault-security-log-v1","' || p_user_id || '",' || p_seq || ',"' || encode(p_prev_hash, 'hex')
    || '","' || ledger.canonical_time(p_recorded_at) || '",' || to_json(p_event)::text || ','
    || to_json(p_detail)::text || ',' || coalesce(to_json(p_ip)::text, 'null') || ','
    || coalesce(to_json(p_user_agent)::text, 'null') || ']';
$$;
comment on function private.canonical_security_event(uuid, bigint, bytea, timestamptz, text, text, text, text) is
  'The exact text a security log entry''s hash is taken over (UTF-8): docs/architecture.md, "The security log".';
revoke execute on function private.canonical_security_event(uuid, bigint, bytea, timestamptz, text, text, text, text)
  from public;

create function private.log_security_event(
  p_user_id uuid,
  p_event text,
  p_detail text,
  p_ip text default null,
  p_user_agent text default null
) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  head private.security_log_heads;
  next_hash bytea;
begin
  insert into private.security_log_heads (user_id) values (p_user_id) on conflict (user_id) do nothing;
  select * into head from private.security_log_heads where user_id = p_user_id for update;
  next_hash := ledger.entry_hash(private.canonical_security_event(
    p_user_id, head.seq + 1, head.hash, now(), p_event, p_detail, p_ip, p_user_agent
  ));
  insert into public.security_log (user_id, seq, recorded_at, event, detail, ip, user_agent, prev_hash, hash)
  values (p_user_id, head.seq + 1, now(), p_event, p_detail, p_ip, p_user_agent, head.hash, next_hash);
  update private.security_log_heads set seq = head.seq + 1, hash = next_hash where user_id = p_user_id;
end;
$$;
comment on function private.log_security_event(uuid, text, text, text, text) is
  'Appends one entry to the person''s security log at the head of their chain; called by the triggers below.';
revoke execute on function private.log_security_event(uuid, text, text, text, text) from public;

create function private.log_session_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform private.log_security_event(new.user_id, 'sign_in', 'Signed in', host(new.ip), new.user_agent);
  else
    perform private.log_security_event(old.user_id, 'session_ended', 'Session ended', host(old.ip), old.user_agent);
  end if;
  return null;
end;
$$;
comment on function private.log_session_change() is
  'Logs a new session (a sign-in, with its address and device) and an ended one (signed out, revoked, expired).';
revoke execute on function private.log_session_change() from public;
create trigger log_security_event_after_write after insert or delete on auth.sessions
  for each row execute function private.log_session_change();
comment on trigger log_security_event_after_write on auth.sessions is
  'Every sign-in and every ended session is in the person''s security log.';

create function private.log_security_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- A later change moves changed_at forward; only an operator moves it back (tests, a fix).
  if tg_op = 'INSERT' or new.changed_at > old.changed_at then
    perform private.log_security_event(new.user_id, new.change, case new.change
      when 'password' then 'Password changed'
      when 'email' then 'E-mail address changed'
      when 'factor_added' then 'Two-factor authentication added'
      else 'Two-factor authentication removed' end
      || '; new withdrawals wait for the security hold');
  elsif new.ended_early_at is not null and old.ended_early_at is null then
    perform private.log_security_event(new.user_id, 'hold_ended', 'Support ended the security hold early');
  end if;
  return null;
end;
$$;
comment on function private.log_security_change() is
  'Logs a password, e-mail or factor change (each starts a security hold) and a hold ended early by support.';
revoke execute on function private.log_security_change() from public;
create trigger log_security_event_after_write after insert or update on private.security_holds
  for each row execute function private.log_security_change();
comment on trigger log_security_event_after_write on private.security_holds is
  'Password, e-mail and factor changes (recorded here by the triggers on Auth''s tables) are in the security log.';

create function private.log_lock_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform private.log_security_event(new.user_id, 'not_me_reported',
      '"This wasn''t me" reported from a security e-mail; withdrawals locked');
  elsif exists (select from auth.users where id = old.user_id) then
    perform private.log_security_event(old.user_id, 'lock_ended', 'Support lifted the lock');
  end if;
  return null;
end;
$$;
comment on function private.log_lock_change() is
  'Logs a "this wasn''t me" report (the lock) and support lifting it (not the lock going with a deleted person).';
revoke execute on function private.log_lock_change() from public;
create trigger log_security_event_after_write after insert or delete on private.withdrawal_locks
  for each row execute function private.log_lock_change();
comment on trigger log_security_event_after_write on private.withdrawal_locks is
  '"This wasn''t me" and its end are in the security log.';

create function private.log_destination_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  named text := format('%s "%s" ending in %s',
    case new.withdraw_method when 'bank' then 'Bank account' when 'card' then 'Card' else 'Crypto wallet' end,
    new.label, new.last4);
begin
  if tg_op = 'INSERT' then
    perform private.log_security_event(new.user_id, 'destination_saved',
      named || ' saved to the address book; usable from ' || private.format_utc(new.usable_at));
  elsif new.removed_at is not null and old.removed_at is null then
    perform private.log_security_event(new.user_id, 'destination_removed', named || ' removed from the address book');
  end if;
  return null;
end;
$$;
comment on function private.log_destination_change() is 'Logs a destination saved to or removed from the address book.';
revoke execute on function private.log_destination_change() from public;
create trigger log_security_event_after_write after insert or update on public.payout_destinations
  for each row execute function private.log_destination_change();
comment on trigger log_security_event_after_write on public.payout_destinations is
  'Address-book changes are in the security log.';

create function private.log_payout_rules_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.allowlist_on and (tg_op = 'INSERT' or not old.allowlist_on
    or (old.allowlist_off_at is not null and new.allowlist_off_at is null)) then
    perform private.log_security_event(new.user_id, 'allowlist_on',
      'Allowlist switched on: withdrawals go only to usable saved destinations');
  end if;
  if new.allowlist_off_at is not null and (tg_op = 'INSERT' or old.allowlist_off_at is null) then
    perform private.log_security_event(new.user_id, 'allowlist_off_asked',
      'Asked to switch the allowlist off; it stays on until ' || private.format_utc(new.allowlist_off_at));
  end if;
  if tg_op = 'UPDATE' and new.wait_hours <> old.wait_hours or tg_op = 'INSERT' and new.wait_hours <> 48 then
    perform private.log_security_event(new.user_id, 'payout_wait_changed',
      'Wait for new destinations set to ' || private.format_wait(new.wait_hours));
  end if;
  return null;
end;
$$;
comment on function private.log_payout_rules_change() is
  'Logs the allowlist switched on, a switch-off asked for (and when it takes effect) and the wait changed.';
revoke execute on function private.log_payout_rules_change() from public;
create trigger log_security_event_after_write after insert or update on public.payout_protection
  for each row execute function private.log_payout_rules_change();
comment on trigger log_security_event_after_write on public.payout_protection is
  'Payout rule changes are in the security log.';

create function private.log_freeze_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.freeze_id is distinct from (case when tg_op = 'UPDATE' then old.freeze_id end) and new.freeze_id is not null
  then
    perform private.log_security_event(new.user_id, 'frozen', case new.frozen_by
      when 'not_me_link' then 'Account frozen from the "this wasn''t me" link of a security e-mail'
      else 'Account frozen' end || '; other sessions signed out');
  elsif tg_op = 'UPDATE' and new.unfreeze_at is not null and old.unfreeze_at is null then
    if new.unfreeze_at <= now() then
      perform private.log_security_event(new.user_id, 'unfrozen_by_admins', 'Unfrozen by two admins');
    else
      perform private.log_security_event(new.user_id, 'unfreeze_asked',
        'Asked to unfreeze with the password; stays frozen until ' || private.format_utc(new.unfreeze_at));
    end if;
  elsif tg_op = 'UPDATE' and new.unfreeze_at is null and old.unfreeze_at is not null then
    perform private.log_security_event(new.user_id, 'unfreeze_cancelled', 'Frozen again: the unfreeze is cancelled');
  end if;
  if new.unfreeze_delay_hours <> (case when tg_op = 'UPDATE' then old.unfreeze_delay_hours else 24 end) then
    perform private.log_security_event(new.user_id, 'unfreeze_delay_changed',
      'Unfreeze delay set to ' || private.format_wait(new.unfreeze_delay_hours));
  end if;
  return null;
end;
$$;
comment on function private.log_freeze_change() is
  'Logs a freeze (button or link), an unfreeze asked for (and when it ends), one by two admins, a pending '
  'unfreeze cancelled by freezing again, and the unfreeze delay changed.';
revoke execute on function private.log_freeze_change() from public;
create trigger log_security_event_after_write after insert or update on public.account_freezes
  for each row execute function private.log_freeze_change();
comment on trigger log_security_event_after_write on public.account_freezes is
  'Freezes, unfreezes and the unfreeze delay are in the security log.';

-- Verification in SQL, as the journal's (ledger.chain_differences): every person's chain read once, each
-- broken link named by person and entry; admins at aal2 run it per person or for everyone.
create function private.security_log_differences(p_user_id uuid)
returns setof ledger.difference
language sql
stable
set search_path = ''
as $$
  with chain as (
    select
      log.user_id,
      log.seq,
      log.prev_hash,
      log.hash,
      coalesce(lag(log.seq) over person, 0) as previous_seq,
      coalesce(lag(log.hash) over person, decode(repeat('00', 32), 'hex')) as previous_hash,
      ledger.entry_hash(private.canonical_security_event(log.user_id, log.seq, log.prev_hash, log.recorded_at,
        log.event, log.detail, log.ip, log.user_agent)) as computed_hash
    from public.security_log as log
    where p_user_id is null or log.user_id = p_user_id
    window person as (partition by log.user_id order by log.seq)
  ),
  last_entries as (
    select distinct on (log.user_id) log.user_id, log.seq, log.hash
    from public.security_log as log
    where p_user_id is null or log.user_id = p_user_id
    order by log.user_id, log.seq desc
  ),
  heads as (
    select heads.user_id, heads.seq, heads.hash
    from private.security_log_heads as heads
    where p_user_id is null or heads.user_id = p_user_id
  )
  select finding.*
  from chain
  cross join lateral (
    select 'chain: entries missing', chain.seq,
      'person ' || chain.user_id || ' entries ' || (chain.previous_seq + 1) || ' to ' || (chain.seq - 1),
      'entry ' || (chain.previous_seq + 1) || ' after entry ' || chain.previous_seq, 'entry ' || chain.seq
    where chain.seq <> chain.previous_seq + 1
    union all
    select 'chain: previous hash differs', chain.seq, 'person ' || chain.user_id || ' entry ' || chain.seq,
      encode(chain.previous_hash, 'hex'), encode(chain.prev_hash, 'hex')
    where chain.seq = chain.previous_seq + 1 and chain.prev_hash <> chain.previous_hash
    union all
    select 'chain: hash differs from contents', chain.seq, 'person ' || chain.user_id || ' entry ' || chain.seq,
      encode(chain.computed_hash, 'hex'), encode(chain.hash, 'hex')
    where chain.hash <> chain.computed_hash
  ) as finding ("check", entry, subject, expected, found)
  where chain.seq <> chain.previous_seq + 1 or chain.prev_hash <> chain.previous_hash
    or chain.hash <> chain.computed_hash
  union all
  select 'chain: head differs from last entry', coalesce(heads.seq, 0),
    'person ' || coalesce(heads.user_id, last_entries.user_id) || ' head',
    coalesce(last_entries.seq, 0) || ' ' || encode(coalesce(last_entries.hash, decode(repeat('00', 32), 'hex')), 'hex'),
    coalesce(heads.seq, 0) || ' ' || encode(coalesce(heads.hash, decode(repeat('00', 32), 'hex')), 'hex')
  from heads
  full join last_entries on last_entries.user_id = heads.user_id
  where (heads.seq, heads.hash) is distinct from (last_entries.seq, last_entries.hash)
    and not (last_entries.user_id is null and heads.seq = 0);
$$;
comment on function private.security_log_differences(uuid) is
  'Verifies the security log of one person (null: everyone) as ledger.chain_differences verifies the journal: '
  'each chain gapless from entry 1, each entry naming its predecessor''s hash (32 zero bytes for the first), '
  'each hash matching its canonical form, the person''s head at their last entry. One row per finding, naming '
  'the person and the entry.';
revoke execute on function private.security_log_differences(uuid) from public;

create function public.verify_security_log(person_id uuid default null)
returns table ("check" text, entry bigint, subject text, expected text, found text)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not (select private.is_admin()) then
    raise exception 'Only admins verify security logs' using errcode = '42501';
  end if;
  return query select * from private.security_log_differences(verify_security_log.person_id);
end;
$$;
comment on function public.verify_security_log(uuid) is
  'Admins at aal2: the findings of private.security_log_differences for one person (null: everyone); no rows '
  'when every entry is as it was written. Anyone else is refused.';
revoke execute on function public.verify_security_log(uuid) from public, anon, authenticated, service_role;
grant execute on function public.verify_security_log(uuid) to authenticated;
