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
  select * into target from public.profiles where id = delete_user.user_id and closed_at is null;
  if not found then
    raise exception 'User not found' using errcode = 'P0002';
  end if;
  -- The entry names the pseudonymous id only: the name and e-mail are what closing removes.
  perform private.write_audit('user.delete', 'profiles', target.id, jsonb_build_object('role', target.role));
  delete from auth.users where id = target.id;
  return target.id;
end;
$$;
comment on function public.delete_user(uuid) is
  'Admin (aal2), not oneself: closes an account with no balance, coins or open requests (close_profile). '
  'Deletes the sign-in (auth.users: identities, factors, sessions, notifications, security e-mails) and the '
  'name, e-mail and watchlist; keeps the profile as a pseudonymous id with every ledger entry and request, '
  'audited.';
revoke execute on function public.delete_user(uuid) from public, anon, authenticated, service_role;
grant execute on function public.delete_user(uuid) to authenticated;

-- Whoever deletes an Auth user (delete_user, the dashboard, Auth's admin API): the same rule, as a trigger.
create function private.close_profile() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  wallet public.wallet_balances;
begin
  -- Under the person's lock, so no approval lands between the checks and the closing.
  wallet := private.lock_wallet(old.id);
  if wallet.balance <> 0 then
    raise exception 'This person still holds % USD: pay it out before closing the account',
      private.format_usd(wallet.balance) using errcode = 'P0001';
  end if;
  if exists (select from public.holdings where holdings.user_id = old.id and quantity > 0) then
    raise exception 'This person still holds coins: they must be sold before closing the account'
      using errcode = 'P0001';
  end if;
  if exists (select from public.buy_requests where buy_requests.user_id = old.id and status = 'pending')
    or exists (select from public.sell_requests where sell_requests.user_id = old.id and status = 'pending')
    or exists (
      select from public.withdraw_requests
      where withdraw_requests.user_id = old.id and status not in ('approved', 'rejected', 'cancelled')
    )
    or exists (select from public.transactions where transactions.user_id = old.id and status <> 'complete')
  then
    raise exception 'This person has open requests or pending transactions: decide them before closing the account'
      using errcode = 'P0001';
  end if;
  update public.profiles set email = null, full_name = null, closed_at = now() where id = old.id;
  delete from public.watchlist where watchlist.user_id = old.id;
  return old;
end;
$$;
comment on function private.close_profile() is
  'Before an Auth user is deleted: refuses while they hold money, coins or open requests; otherwise leaves the '
  'profile closed, without name or e-mail, and drops the watchlist. Auth''s own rows (identities, factors, '
  'sessions) and notifications, security e-mails and holds go by their cascades.';
revoke execute on function private.close_profile() from public;

create trigger close_profile_before_delete
  before delete on auth.users
  for each row execute function private.close_profile();
comment on trigger close_profile_before_delete on auth.users is
  'Closing a person keeps the books: refused with money, coins or open requests; the profile is pseudonymised.';
