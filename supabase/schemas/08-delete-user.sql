-- An admin deletes a person in one transaction: the audit entry and the deletion commit together or not at all.
-- Deleting the Auth user cascades through the foreign keys to the profile, transactions and requests (and to
-- Auth's own identities and sessions), so the audit entry keeps who was deleted, and by whom.

create function public.delete_user(user_id uuid) returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  target public.profiles;
begin
  perform private.assert_admin();
  -- An admin removing their own account would lock themselves out mid-session; another admin must do it.
  if delete_user.user_id = (select auth.uid()) then
    raise exception 'You cannot delete your own account' using errcode = 'P0001';
  end if;
  select * into target from public.profiles where id = delete_user.user_id for update;
  if not found then
    raise exception 'User not found' using errcode = 'P0002';
  end if;

  perform private.write_audit(
    'user.delete',
    'profiles',
    target.id,
    jsonb_build_object('email', target.email, 'full_name', target.full_name, 'role', target.role)
  );
  delete from auth.users where id = target.id;
  return target.id;
end;
$$;
comment on function public.delete_user(uuid) is
  'Admin only. Deletes a person''s account and everything of theirs (foreign keys cascade from auth.users) and '
  'records it in audit_log, in one transaction. Refuses the caller''s own account (P0001) and unknown ids (P0002).';
revoke execute on function public.delete_user(uuid) from public, anon, authenticated, service_role;
grant execute on function public.delete_user(uuid) to authenticated;
