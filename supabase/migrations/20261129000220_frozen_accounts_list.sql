-- The admins' screen for the two-admin unfreeze (issue 27) reads this list.

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
