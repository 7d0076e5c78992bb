-- A person who set up two-factor authentication reads their money only after entering a code: a log-in left
-- at the code step is an aal1 session, and without this it read the person's transactions and requests.
-- Supabase's "enforce MFA for users who have opted in" rule: the session must be aal2 when the caller has a
-- verified factor, as a restrictive policy, whatever the permissive policies allow.
--
-- On each money table it joins the restrictive policy that kept other people's rows for aal2 sessions
-- (20261125000200_admins_at_aal2.sql) into one with the same meaning:
--   (own row or aal2) and (aal2 or no verified factor)  =  aal2 or (own row and no verified factor).
-- Written for the transaction list's speed (bench/rls-transactions.bench.ts), which the two policies had
-- pushed to 1.6-2x the cost without RLS (1.34x after):
-- - Each caller-only part is a whole (select …), so Postgres evaluates it once per statement (an InitPlan)
--   and, seeing a boolean parameter, estimates half the rows pass. The old `(select auth.jwt()) ->> 'aal' =
--   'aal2'` compared per row was estimated at 0.5 %, so with the person's 100 rows the planner expected one
--   and read and sorted all of them instead of the newest 20 from the index.
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

do $$
declare
  money_table text;
  label text;
  policy_name text;
begin
  foreach money_table in array array['transactions', 'buy_requests', 'withdraw_requests'] loop
    label := replace(money_table, '_', ' ');
    policy_name := initcap(left(label, 1)) || substr(label, 2)
      || ' are read at aal2 or own ones without a factor';
    execute format('drop policy %I on public.%I', 'Only aal2 sessions can read other people''s ' || label, money_table);
    execute format(
      'create policy %I on public.%I as restrictive for select to authenticated using ('
        || '(select coalesce(((select auth.jwt()) ->> ''aal'') = ''aal2'', false))'
        || ' or (user_id = (select auth.uid()) and not (select private.has_verified_factor())))',
      policy_name, money_table
    );
    execute format(
      'comment on policy %I on public.%I is %L', policy_name, money_table,
      'Other people''s ' || label || ' only at aal2 (admins), and a person with a verified factor reads their own '
        || 'only at aal2 too: a log-in left at the code step reads none.'
    );
  end loop;
end;
$$;
