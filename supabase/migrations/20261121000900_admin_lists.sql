-- Admin lists that need more than one table: people with their available balance, and the audit log with
-- the acting person's name. Security invoker views, so row-level security of the underlying tables decides
-- who sees what (admins everything, a person only their own profile, nobody else the audit log).

create view public.users_with_balance
with (security_invoker = true)
as
select
  profiles.id,
  profiles.email,
  profiles.full_name,
  profiles.role,
  profiles.registration_date,
  wallet_balances.available
from public.profiles
join public.wallet_balances on wallet_balances.user_id = profiles.id;
comment on view public.users_with_balance is
  'People with their available balance (from wallet_balances, the one place it is computed), for the admin '
  'user list. Security invoker: same rows as profiles.';

create view public.audit_log_with_actor
with (security_invoker = true)
as
select
  audit_log.id,
  audit_log.actor_id,
  audit_log.action,
  audit_log.target_table,
  audit_log.target_id,
  audit_log.details,
  audit_log.at,
  profiles.full_name as actor_name,
  profiles.email as actor_email
from public.audit_log
left join public.profiles on profiles.id = audit_log.actor_id;
comment on view public.audit_log_with_actor is
  'The audit log with the acting person''s name and e-mail (null once that person is deleted, or for the '
  'database operator). Security invoker: admins only, as audit_log.';

revoke all on table public.users_with_balance, public.audit_log_with_actor from anon, authenticated, service_role;
grant select on table public.users_with_balance, public.audit_log_with_actor to authenticated, service_role;
