-- The freeze travels live (issues 27 and 31), as the lock and the security hold do (20261128000200).

-- A freeze, an unfreeze asked for or made by two admins, and the delay changed alter what the person's banner
-- and forms say and what the admin queues offer (a frozen person's rows are held), without changing any
-- request row: told as the lock and the hold are, on the person's account topic and on admin:queues. The
-- payload keeps only the columns signed-in people may select (never freeze_id or unfreeze_email_id).
create trigger broadcast_change_after_write after insert or update or delete on public.account_freezes
  for each row execute function private.broadcast_row_change('account', 'admin:queues');
comment on trigger broadcast_change_after_write on public.account_freezes is
  'A freeze made, cancelled or ended: told on the person''s account topic and on admin:queues, selectable '
  'columns only.';
