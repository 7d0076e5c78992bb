-- Changing the security hold's length moves the end of running holds, which nothing broadcast: the person's
-- banner and the admin queues kept the old end until something else made them read again.
-- A hold's length is a setting (transaction_limits.security_hold_hours): changing it moves the end of every
-- running hold while no row of security_holds changes. So it is told as a change of security_holds, without
-- columns, on admin:queues and on the account topic of each person whose hold runs under the old or the new
-- length; the receivers read the state again.
create function private.broadcast_hold_length_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  payload jsonb := jsonb_build_object(
    'table', 'security_holds', 'schema', 'private', 'operation', 'UPDATE',
    'record', '{}'::jsonb, 'old_record', '{}'::jsonb
  );
begin
  perform realtime.send(payload, 'security_holds', 'user:' || holds.user_id || ':account', true)
  from private.security_holds as holds
  where holds.ended_early_at is null
    and holds.changed_at + make_interval(hours => greatest(old.security_hold_hours, new.security_hold_hours)) > now();
  perform realtime.send(payload, 'security_holds', 'admin:queues', true);
  return null;
end;
$$;
comment on function private.broadcast_hold_length_change() is
  'After the security hold''s length changes: a columnless security_holds UPDATE on admin:queues and on the '
  'account topic of each person whose hold runs under the old or the new length.';
revoke execute on function private.broadcast_hold_length_change() from public, anon, authenticated;

create trigger broadcast_hold_length_change after update of security_hold_hours on public.transaction_limits
  for each row when (old.security_hold_hours is distinct from new.security_hold_hours)
  execute function private.broadcast_hold_length_change();
comment on trigger broadcast_hold_length_change on public.transaction_limits is
  'A new security hold length moves the end of running holds: told as a change of their holds.';
