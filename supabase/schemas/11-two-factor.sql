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
-- Step-up before money leaves: a person who has enrolled a second factor creates a withdrawal only from a
-- session that verified it (aal2), so a stolen password alone cannot send their balance away. A trigger, so
-- every path into withdraw_requests obeys it; the withdrawals function checks the same first for a clear 403.

create function private.require_aal2_for_withdrawal() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- Only requests made with a person's token; the database operator and the service role have no session.
  if (select auth.role()) is distinct from 'authenticated' or private.session_is_aal2() then
    return new;
  end if;
  if exists (
    select 1 from auth.mfa_factors where mfa_factors.user_id = new.user_id and mfa_factors.status = 'verified'
  ) then
    raise exception 'Enter a code from your authenticator app to withdraw' using errcode = '42501';
  end if;
  return new;
end;
$$;
comment on function private.require_aal2_for_withdrawal() is
  'Refuses (42501) a withdrawal by a person with a verified factor whose session is below aal2.';
revoke execute on function private.require_aal2_for_withdrawal() from public;
create trigger require_aal2_for_withdrawal_before_insert
  before insert on public.withdraw_requests
  for each row execute function private.require_aal2_for_withdrawal();
comment on trigger require_aal2_for_withdrawal_before_insert on public.withdraw_requests is
  'Step-up: two-factor people withdraw only from an aal2 session.';
