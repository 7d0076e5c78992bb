-- The admin Users list's balance and restrictions as scalar subqueries rather than joins: its count (PostgREST's
-- count=exact) reads the people alone, and a page computes them for its own rows only, after the sort and limit.
create or replace view public.users_with_balance with (security_invoker = true) as
select people.id, people.email, people.full_name, people.role, people.registration_date,
  (select wallet_balances.available from public.wallet_balances where wallet_balances.user_id = people.id)
    as available,
  (select restrictions.hold_until from private.account_restrictions(people.id) as restrictions) as hold_until,
  (select restrictions.withdrawals_locked from private.account_restrictions(people.id) as restrictions)
    as withdrawals_locked,
  (select restrictions.frozen from private.account_restrictions(people.id) as restrictions) as frozen,
  (select restrictions.two_factor from private.account_restrictions(people.id) as restrictions) as two_factor
-- Open accounts as a subquery, not the table itself, so the view stays read-only (not automatically updatable).
from (
  select profiles.id, profiles.email, profiles.full_name, profiles.role, profiles.registration_date
  from public.profiles
  where profiles.closed_at is null
) as people;
