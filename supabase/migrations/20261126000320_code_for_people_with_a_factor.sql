-- A person who set up two-factor authentication reads their money only after entering a code: a log-in left
-- at the code step is an aal1 session, and without these policies it read the person's transactions and
-- requests. Supabase's "enforce MFA for users who have opted in" rule, as restrictive policies: the session
-- must be aal2 when the caller has a verified factor, whatever the permissive policies allow. Both sides are
-- wrapped in (select …), so Postgres evaluates each once per statement (an InitPlan), not once per row.
-- Supabase's example reads auth.mfa_factors in the policy itself; the API roles have no privilege on that
-- table (here as on hosted Supabase), so a security-definer function answers for the caller's own factors.
-- Profiles stay readable at aal1: the app reads the person's role there to know which area's code step to
-- show.

create function private.has_verified_factor() returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from auth.mfa_factors
    where mfa_factors.user_id = (select auth.uid()) and mfa_factors.status = 'verified'
  );
$$;
comment on function private.has_verified_factor() is
  'True when the caller has a verified second factor (TOTP), so their money is read only at aal2.';
revoke execute on function private.has_verified_factor() from public;
grant execute on function private.has_verified_factor() to authenticated;

create policy "People with two-factor authentication read their transactions only at aal2"
  on public.transactions as restrictive for select to authenticated
  using (((select auth.jwt()) ->> 'aal') = 'aal2' or not (select private.has_verified_factor()));
comment on policy "People with two-factor authentication read their transactions only at aal2"
  on public.transactions is
  'A log-in left at the code step (aal1) reads no transactions of a person who set up a factor.';

create policy "People with two-factor authentication read their buy requests only at aal2"
  on public.buy_requests as restrictive for select to authenticated
  using (((select auth.jwt()) ->> 'aal') = 'aal2' or not (select private.has_verified_factor()));
comment on policy "People with two-factor authentication read their buy requests only at aal2"
  on public.buy_requests is
  'A log-in left at the code step (aal1) reads no buy requests of a person who set up a factor.';

create policy "People with two-factor authentication read their withdraw requests only at aal2"
  on public.withdraw_requests as restrictive for select to authenticated
  using (((select auth.jwt()) ->> 'aal') = 'aal2' or not (select private.has_verified_factor()));
comment on policy "People with two-factor authentication read their withdraw requests only at aal2"
  on public.withdraw_requests is
  'A log-in left at the code step (aal1) reads no withdraw requests of a person who set up a factor.';
