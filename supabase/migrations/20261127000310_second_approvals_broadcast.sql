-- A first admin's approval that waits for a second admin (public.second_approvals) changes what every admin's
-- queue shows without changing the request's row: it is broadcast on the admins' topic too.
create trigger broadcast_change_after_write after insert or update or delete on public.second_approvals
  for each row execute function private.broadcast_row_change('wallet', 'admin:queues');
