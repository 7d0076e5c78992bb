-- Foundation: the private helper schema, the enums of the data model, the audit log and the
-- helpers every other area shares (amount validation, USD formatting, audit writes, the session's
-- assurance level).

create schema if not exists private;
comment on schema private is
  'Helpers for policies, triggers and RPCs. Not exposed through the API (PostgREST serves only public).';
-- Policies run as the API roles, so they must be able to reach the helpers they call.
grant usage on schema private to authenticated, service_role;
create type public.app_role as enum ('user', 'admin');
comment on type public.app_role is 'Role of a person in the app; only a database operator makes admins.';
create type public.transaction_type as enum ('deposit', 'sell', 'withdraw', 'buy');
comment on type public.transaction_type is
  'Kind of ledger entry: deposit and sell add to the balance, withdraw and buy take from it.';
create type public.request_status as enum ('pending', 'approved', 'rejected', 'cancelled');
comment on type public.request_status is
  'Life cycle of a buy or sell request: pending until an admin approves or rejects it or its owner cancels it.';
create type public.withdraw_method as enum ('bank', 'card', 'wallet');
comment on type public.withdraw_method is 'How a withdrawal is paid out: bank transfer, card or crypto wallet.';
create table public.audit_log (
  id uuid primary key default gen_random_uuid(),
  actor_id uuid,
  action text not null,
  target_table text not null,
  target_id uuid,
  details jsonb not null default '{}'::jsonb,
  at timestamptz not null default now()
);
comment on table public.audit_log is
  'Who did what: one row per admin action and money-moving step. Written only by functions and triggers.';
comment on column public.audit_log.actor_id is
  'The acting person (auth.uid()), or null for the database operator. No foreign key: the trail outlives users.';
comment on column public.audit_log.action is 'What happened, as <object>.<verb>, e.g. buy_request.approve.';
comment on column public.audit_log.target_id is 'Id of the changed row; null for the single-row limits.';
comment on column public.audit_log.details is 'Values that explain the action (amounts, old and new status).';
create index audit_log_at_idx on public.audit_log (at desc);
comment on index public.audit_log_at_idx is 'The admin audit list, newest first.';
alter table public.audit_log enable row level security;
revoke all on table public.audit_log from anon, authenticated, service_role;
grant select on table public.audit_log to authenticated;
-- Edge Functions (withdrawal-details, admin-delete-user) record their actions with the service role.
grant select, insert on table public.audit_log to service_role;
-- The actor is the request's user, or the person a service-role call acts for (the withdrawals
-- function acts for the signed-in person, who has no auth.uid() inside the service role's request).
create function private.write_audit(
  p_action text,
  p_target_table text,
  p_target_id uuid,
  p_details jsonb default '{}'::jsonb,
  p_actor_id uuid default null
) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.audit_log (actor_id, action, target_table, target_id, details)
  values (
    coalesce(p_actor_id, (select auth.uid())),
    p_action,
    p_target_table,
    p_target_id,
    coalesce(p_details, '{}'::jsonb)
  );
end;
$$;
comment on function private.write_audit(text, text, uuid, jsonb, uuid) is
  'Appends one audit_log row; the actor is the given person, else the current request''s user.';
create function private.is_usd_amount(value numeric) returns boolean
language plpgsql
immutable
set search_path = ''
as $$
begin
  return value is not null
    and value > 0
    and value < 1e12
    and value = round(value, 2);
end;
$$;
comment on function private.is_usd_amount(numeric) is
  'True for a positive dollar amount with at most 2 decimals that fits numeric(14,2); false for NaN and Infinity.';
create function private.assert_usd_amount(value numeric) returns void
language plpgsql
immutable
set search_path = ''
as $$
begin
  -- NaN compares greater than every number in Postgres, so it is caught before the range checks.
  if value is null or value = 'NaN'::numeric then
    raise exception 'Amount must be a number' using errcode = 'P0001';
  end if;
  if value <= 0 then
    raise exception 'Amount must be greater than 0' using errcode = 'P0001';
  end if;
  if value >= 1e12 then
    raise exception 'Amount is too large' using errcode = 'P0001';
  end if;
  if value <> round(value, 2) then
    raise exception 'Amount must have at most 2 decimal places' using errcode = 'P0001';
  end if;
end;
$$;
comment on function private.assert_usd_amount(numeric) is
  'Raises a clear error unless the value is a valid dollar amount (see private.is_usd_amount).';
create function private.format_usd(value numeric) returns text
language plpgsql
immutable
set search_path = ''
as $$
begin
  -- Same text as JavaScript's value.toLocaleString('en-US'): 10000 -> 10,000 and 10.5 -> 10.5.
  return to_char(trunc(value), 'FM999,999,999,999,990')
    || coalesce('.' || nullif(rtrim(substr(to_char(abs(value) - trunc(abs(value)), 'FM0.00'), 3), '0'), ''), '');
end;
$$;
comment on function private.format_usd(numeric) is
  'Formats a dollar amount for error texts the way the app shows it (en-US thousands separators).';
-- Only the security-definer writer is locked away; the pure helpers run inside check constraints and
-- triggers as whichever role writes the row, so they stay executable.
revoke execute on function private.write_audit(text, text, uuid, jsonb, uuid) from public;
-- Admins work at aal2: a password alone reaches nobody else's money or data. An admin's token
-- must carry `aal: aal2` (a TOTP code verified in this session, Supabase Auth's authenticator assurance
-- level) for every admin read and write. Two layers, so a new permissive policy cannot forget it:
-- private.is_admin() is false below aal2 (every policy and RPC that asks it inherits the rule), and
-- restrictive policies on each table admins read or write refuse other people's rows below aal2 whatever
-- the permissive policies say. The admin views are security invoker, so these tables' policies apply to them.

create function private.session_is_aal2() returns boolean
language plpgsql
stable
set search_path = ''
as $$
begin
  return coalesce((auth.jwt() ->> 'aal') = 'aal2', false);
end;
$$;
comment on function private.session_is_aal2() is
  'True when the caller''s token says aal2: this session verified a second factor (TOTP) after the password.';
-- A person who set up two-factor authentication reads their money only after entering a code: a log-in left
-- at the code step is an aal1 session. Supabase's "enforce MFA for users who have opted in" rule: the session
-- must be aal2 when the caller has a verified factor, as a restrictive policy, whatever the permissive
-- policies allow.
--
-- On each money table one restrictive select policy says both rules (other people's rows only at aal2; own
-- rows at aal2 when the person has a factor): aal2 or (own row and no verified factor). Written for the
-- transaction list's speed (bench/rls-transactions.bench.ts; 1.34x the cost without RLS):
-- - Each caller-only part is a whole (select …), so Postgres evaluates it once per statement (an InitPlan)
--   and, seeing a boolean parameter, estimates half the rows pass. A `(select auth.jwt()) ->> 'aal' =
--   'aal2'` compared per row is estimated at 0.5 %, so with the person's 100 rows the planner expects one
--   and reads and sorts all of them instead of the newest 20 from the index.
-- - The factor is read by a PL/pgSQL function, whose statement plan is kept for the session; a SQL function
--   that is not inlined (security definer) is planned again at every call. Supabase's example reads
--   auth.mfa_factors in the policy itself; the API roles have no privilege on that table (here as on hosted
--   Supabase), hence the security-definer function, which answers for the caller's own factors only.
-- Profiles stay readable at aal1: the app reads the person's role there to know which code step to show.

create function private.has_verified_factor() returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return exists (
    select 1 from auth.mfa_factors
    where mfa_factors.user_id = (select auth.uid()) and mfa_factors.status = 'verified'
  );
end;
$$;
comment on function private.has_verified_factor() is
  'True when the caller has a verified second factor (TOTP), so their money is read only at aal2.';
revoke execute on function private.has_verified_factor() from public;
grant execute on function private.has_verified_factor() to authenticated;
