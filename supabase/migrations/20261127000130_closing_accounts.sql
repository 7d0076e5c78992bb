-- Closing a person, not erasing the books (issue 26). delete_user deleted auth.users, which cascaded through
-- profiles into transactions and the requests: the ledger lost entries and every report changed. Now:
--   - a person is closed only with nothing left: no balance, no coins, no open request or pending entry;
--   - closing deletes their sign-in (auth.users, and with it identities, factors, sessions, notifications,
--     security e-mails, holds) and their personal data on the profile (name, e-mail) and their watchlist;
--   - the profile stays as a closed, pseudonymous row (its id, wallet code, registration date, role), and
--     every ledger entry and request stays under that id, so balances and reports stay true.
-- What is kept, how long and why: docs/architecture.md, "Money safety".

alter table public.profiles add column closed_at timestamptz;
comment on column public.profiles.closed_at is
  'When the account was closed (delete_user): the row stays, without name or e-mail, as the pseudonymous owner '
  'of its ledger entries and requests.';

-- The profile outlives its sign-in: no foreign key to auth.users (a closed profile has none). The sign-up
-- trigger still makes one profile per Auth user with the same id.
alter table public.profiles drop constraint profiles_id_fkey;

-- The books never go with a profile.
alter table public.transactions drop constraint transactions_user_id_fkey,
  add constraint transactions_user_id_fkey foreign key (user_id) references public.profiles (id) on delete restrict;
alter table public.buy_requests drop constraint buy_requests_user_id_fkey,
  add constraint buy_requests_user_id_fkey foreign key (user_id) references public.profiles (id) on delete restrict;
alter table public.sell_requests drop constraint sell_requests_user_id_fkey,
  add constraint sell_requests_user_id_fkey foreign key (user_id) references public.profiles (id) on delete restrict;
alter table public.withdraw_requests drop constraint withdraw_requests_user_id_fkey,
  add constraint withdraw_requests_user_id_fkey
    foreign key (user_id) references public.profiles (id) on delete restrict;

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
      where withdraw_requests.user_id = old.id and status not in ('approved', 'rejected')
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

create or replace function public.delete_user(user_id uuid) returns uuid
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

-- Closed accounts are not people the back office lists: they hold nothing, and their entries stay in the
-- transaction list.
create or replace view public.users_with_balance with (security_invoker = true) as
select profiles.id, profiles.email, profiles.full_name, profiles.role, profiles.registration_date,
  wallet_balances.available
from public.profiles
join public.wallet_balances on wallet_balances.user_id = profiles.id
where profiles.closed_at is null;
