-- Frozen accounts (issue 27): the freeze travels live as the lock and the hold do, and admins see whom to
-- unfreeze, two of them together (public.unfreeze_by_admins, 24-protections).

-- A freeze, an unfreeze asked for or made by two admins, and the delay changed alter what the person's banner
-- and forms say and what the admin queues offer (a frozen person's rows are held), without changing any
-- request row: told as the lock and the hold are, on the person's account topic and on admin:queues. The
-- payload keeps only the columns signed-in people may select (never unfreeze_email_id; freeze_id, the freeze's
-- own random id, is selectable for the admins' list below).
create trigger broadcast_change_after_write after insert or update or delete on public.account_freezes
  for each row execute function private.broadcast_row_change('account', 'admin:queues');
comment on trigger broadcast_change_after_write on public.account_freezes is
  'A freeze made, cancelled or ended: told on the person''s account topic and on admin:queues, selectable '
  'columns only.';

-- The admins' list of frozen accounts: whom a person's own unfreeze is pending for, and which ones a first
-- admin already asked to unfreeze (second_approvals, the freeze's own id): the screen offers that admin no
-- button and any other admin the confirmation. freeze_id is readable so the view can join it (security invoker).
grant select (freeze_id) on table public.account_freezes to authenticated;
create view public.frozen_accounts with (security_invoker = true) as
select profiles.id, profiles.full_name, profiles.email, account_freezes.frozen_at,
  account_freezes.frozen_by, account_freezes.unfreeze_at, proposal.proposed_by, proposal.proposed_at,
  proposer.full_name as proposed_by_name
from public.account_freezes
join public.profiles on profiles.id = account_freezes.user_id
left join public.second_approvals as proposal
  on proposal.target_table = 'account_freezes' and proposal.target_id = account_freezes.freeze_id
  and proposal.confirmed_at is null
left join public.profiles as proposer on proposer.id = proposal.proposed_by
where account_freezes.frozen_at is not null
  and (account_freezes.unfreeze_at is null or account_freezes.unfreeze_at > now())
  and (select private.is_admin());
comment on view public.frozen_accounts is
  'Accounts frozen now, with the person (id: theirs, as in users_with_balance), how and when, a pending unfreeze the person asked for, and the first '
  'admin who asked to unfreeze it (awaiting a second admin). Admins at aal2 only (the person reads their '
  'freeze on account_freezes); security invoker, so the tables'' policies apply too.';
revoke all on table public.frozen_accounts from anon, authenticated, service_role;
grant select on table public.frozen_accounts to authenticated;
