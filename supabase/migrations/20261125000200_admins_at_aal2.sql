-- Admins work at aal2: a password alone no longer reaches anyone else's money or data. An admin's token
-- must carry `aal: aal2` (a TOTP code verified in this session, Supabase Auth's authenticator assurance
-- level) for every admin read and write. Two layers, so a new permissive policy cannot forget it:
-- private.is_admin() is false below aal2 (every policy and RPC that asks it inherits the rule), and
-- restrictive policies on each table admins read or write refuse other people's rows below aal2 whatever
-- the permissive policies say. The admin views are security invoker, so these tables' policies apply to them.

create function private.session_is_aal2() returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(((select auth.jwt()) ->> 'aal') = 'aal2', false);
$$;
comment on function private.session_is_aal2() is
  'True when the caller''s token says aal2: this session verified a second factor (TOTP) after the password.';

create or replace function private.is_admin() returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select private.session_is_aal2() and exists (
    select 1 from public.profiles where id = (select auth.uid()) and role = 'admin'
  );
$$;
comment on function private.is_admin() is
  'True only when the signed-in person''s stored role is admin and their session is at aal2. Security definer so '
  'policies on profiles do not recurse.';

create or replace function private.assert_admin() returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if private.is_admin() then
    return;
  end if;
  if exists (select 1 from public.profiles where id = (select auth.uid()) and role = 'admin') then
    raise exception 'Admins must confirm a code from their authenticator app (aal2) to do this'
      using errcode = '42501';
  end if;
  raise exception 'Only admins can do this' using errcode = '42501';
end;
$$;
comment on function private.assert_admin() is
  'Raises permission denied (42501) unless the caller is an admin at aal2, naming the missing second factor to an '
  'admin signed in with a password only.';

-- Restrictive policies: AND-ed with the permissive ones, per command.
create policy "Only aal2 sessions can read other people's profiles"
  on public.profiles as restrictive for select to authenticated
  using (id = (select auth.uid()) or ((select auth.jwt()) ->> 'aal') = 'aal2');
comment on policy "Only aal2 sessions can read other people's profiles" on public.profiles is
  'An admin signed in with a password only sees their own profile (enough for the app to send them to the code step).';

create policy "Only aal2 sessions can read other people's buy requests"
  on public.buy_requests as restrictive for select to authenticated
  using (user_id = (select auth.uid()) or ((select auth.jwt()) ->> 'aal') = 'aal2');
comment on policy "Only aal2 sessions can read other people's buy requests" on public.buy_requests is
  'The admin queue (and buy_requests_with_user) needs a second factor.';

create policy "Only aal2 sessions can read other people's withdraw requests"
  on public.withdraw_requests as restrictive for select to authenticated
  using (user_id = (select auth.uid()) or ((select auth.jwt()) ->> 'aal') = 'aal2');
comment on policy "Only aal2 sessions can read other people's withdraw requests" on public.withdraw_requests is
  'The admin queue (and withdraw_requests_with_user, wallet_balances'' reservations) needs a second factor.';

create policy "Only aal2 sessions can read other people's transactions"
  on public.transactions as restrictive for select to authenticated
  using (user_id = (select auth.uid()) or ((select auth.jwt()) ->> 'aal') = 'aal2');
comment on policy "Only aal2 sessions can read other people's transactions" on public.transactions is
  'The whole ledger (and transactions_with_user) needs a second factor.';

create policy "Only aal2 sessions can create deposits"
  on public.transactions as restrictive for insert to authenticated
  with check (((select auth.jwt()) ->> 'aal') = 'aal2');
comment on policy "Only aal2 sessions can create deposits" on public.transactions is
  'The one plain ledger write (an admin''s pending deposit) needs a second factor.';

create policy "Only aal2 sessions can read the audit log"
  on public.audit_log as restrictive for select to authenticated
  using (((select auth.jwt()) ->> 'aal') = 'aal2');
comment on policy "Only aal2 sessions can read the audit log" on public.audit_log is
  'Who did what (and audit_log_with_actor) needs a second factor.';

create policy "Only aal2 sessions can create status types"
  on public.status_types as restrictive for insert to authenticated
  with check (((select auth.jwt()) ->> 'aal') = 'aal2');
comment on policy "Only aal2 sessions can create status types" on public.status_types is
  'Admin settings need a second factor.';

create policy "Only aal2 sessions can delete status types"
  on public.status_types as restrictive for delete to authenticated
  using (((select auth.jwt()) ->> 'aal') = 'aal2');
comment on policy "Only aal2 sessions can delete status types" on public.status_types is
  'Admin settings need a second factor.';

create policy "Only aal2 sessions can update the transaction limits"
  on public.transaction_limits as restrictive for update to authenticated
  using (((select auth.jwt()) ->> 'aal') = 'aal2')
  with check (((select auth.jwt()) ->> 'aal') = 'aal2');
comment on policy "Only aal2 sessions can update the transaction limits" on public.transaction_limits is
  'Admin settings need a second factor.';

-- Recovery without the phone: the person asks an admin, who checks who they are outside the app and removes
-- their factors; they sign in with the password alone and enrol again. As GoTrue's admin API
-- (DELETE /admin/users/{id}/factors/{factor_id}) it removes factors only; it is audited like every admin step.
create function public.remove_two_factor(user_id uuid) returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  target public.profiles;
  removed integer;
begin
  perform private.assert_admin();
  select * into target from public.profiles where id = remove_two_factor.user_id;
  if not found then
    raise exception 'User not found' using errcode = 'P0002';
  end if;
  delete from auth.mfa_factors where mfa_factors.user_id = target.id;
  get diagnostics removed = row_count;
  perform private.write_audit(
    'user.remove_two_factor',
    'profiles',
    target.id,
    jsonb_build_object('email', target.email, 'factors_removed', removed)
  );
  return removed;
end;
$$;
comment on function public.remove_two_factor(uuid) is
  'Admin only (aal2). Removes every two-factor factor of a person who lost their authenticator, and records it in '
  'audit_log; answers how many were removed. Unknown ids: P0002.';
revoke execute on function public.remove_two_factor(uuid) from public, anon, authenticated, service_role;
grant execute on function public.remove_two_factor(uuid) to authenticated;
