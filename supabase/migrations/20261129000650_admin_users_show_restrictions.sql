-- The admin Users list shows each person's hold, lock, freeze and two-factor state.
create function private.account_restrictions(p_user_id uuid)
returns table (hold_until timestamptz, withdrawals_locked boolean, frozen boolean, two_factor boolean)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  -- Admins only: a person reads their own restrictions through my_money_restrictions.
  if not private.is_admin() then
    return;
  end if;
  return query select
    (select hold.hold_until from private.security_hold_until(p_user_id) as hold),
    exists (select from private.withdrawal_locks as withdrawal_lock where withdrawal_lock.user_id = p_user_id),
    private.is_frozen(p_user_id),
    exists (
      select from auth.mfa_factors as factor where factor.user_id = p_user_id and factor.status = 'verified'
    );
end;
$$;
comment on function private.account_restrictions(uuid) is
  'For admins (no row for anyone else): until when the person''s withdrawals are held, whether a "this '
  'wasn''t me" link locked them, whether the account is frozen and whether they have two-factor '
  'authentication, so the admin user list shows what a person meets before anyone acts.';
revoke execute on function private.account_restrictions(uuid) from public;
grant execute on function private.account_restrictions(uuid) to authenticated, service_role;
create or replace view public.users_with_balance with (security_invoker = true) as
select profiles.id, profiles.email, profiles.full_name, profiles.role, profiles.registration_date,
  wallet_balances.available, restrictions.hold_until, restrictions.withdrawals_locked, restrictions.frozen,
  restrictions.two_factor
from public.profiles
join public.wallet_balances on wallet_balances.user_id = profiles.id
left join lateral private.account_restrictions(profiles.id) as restrictions on true
where profiles.closed_at is null;
comment on column public.users_with_balance.hold_until is
  'Admins: until when the person''s withdrawals are held after a security change (null: no hold).';
comment on column public.users_with_balance.withdrawals_locked is
  'Admins: whether a "this wasn''t me" link locked the person''s withdrawals (null for anyone else).';
comment on column public.users_with_balance.frozen is 'Admins: whether the account is frozen now (null for anyone else).';
comment on column public.users_with_balance.two_factor is
  'Admins: whether the person has a verified two-factor method (null for anyone else).';
