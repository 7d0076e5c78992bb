-- Live data on private Broadcast topics fed by the database, instead of Postgres Changes: Supabase checks a
-- Postgres change against every subscriber of its table, so its cost grows with the people signed in; a
-- broadcast is written once and sent to the channels of one topic. Each person has two topics:
--   user:<id>:wallet   their buy, sell and withdraw requests and their transactions (so their holdings),
--                      read as their money is: at aal2, or without a verified factor;
--   user:<id>:account  their notifications and sessions, and their lock and security hold;
-- and admins at aal2 share admin:queues (every buy, sell and withdraw request, second approval, lock and hold).
-- Who may join a topic is decided when the channel joins, by the select policies on realtime.messages (with
-- realtime.topic()); the app joins with `private: true`, and hosted projects switch "Allow public access"
-- off (README, deploy section). A payload carries only columns the API roles may select (never
-- encrypted_data, nothing of auth.sessions) of a row the topic's reader may read.

create function private.broadcast_row_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  -- Trigger arguments: the person's topic (wallet or account), then optionally the admins' topic.
  person_topic text := TG_ARGV[0];
  admin_topic text := TG_ARGV[1];
  -- Only the side the operation has: an insert has no old row, a delete no new one.
  new_row jsonb := case when TG_OP <> 'DELETE' then to_jsonb(NEW) end;
  old_row jsonb := case when TG_OP <> 'INSERT' then to_jsonb(OLD) end;
  -- What a broadcast never carries: the columns signed-in people may not select (encrypted_data, every column of
  -- a private table). A table they may select in full (most) needs no look at its columns: that test is a plain
  -- expression, which PL/pgSQL evaluates without starting a statement.
  unselectable text[] := '{}';
  owner_id text := coalesce(new_row, old_row) ->> 'user_id';
  payload jsonb;
begin
  if not pg_catalog.has_table_privilege('authenticated', TG_RELID, 'SELECT') then
    unselectable := array(
      select columns.attname
      from pg_catalog.pg_attribute as columns
      where columns.attrelid = TG_RELID and columns.attnum > 0 and not columns.attisdropped
        and not pg_catalog.has_column_privilege('authenticated', TG_RELID, columns.attnum, 'SELECT')
    );
  end if;
  payload := jsonb_build_object(
    'table', TG_TABLE_NAME,
    'schema', TG_TABLE_SCHEMA,
    'operation', TG_OP,
    'record', new_row - unselectable,
    'old_record', old_row - unselectable
  );
  if owner_id is not null then
    perform realtime.send(payload, TG_TABLE_NAME, 'user:' || owner_id || ':' || person_topic, true);
  end if;
  if admin_topic is not null then
    perform realtime.send(payload, TG_TABLE_NAME, admin_topic, true);
  end if;
  return null;
end;
$$;
comment on function private.broadcast_row_change() is
  'After a row changes, broadcasts {table, schema, operation, record, old_record} (without the columns signed-in '
  'people may not select) as event <table> on the owner''s private topic user:<user_id>:<TG_ARGV[0]> and, when '
  'given, on TG_ARGV[1].';
revoke execute on function private.broadcast_row_change() from public, anon, authenticated;

create trigger broadcast_change_after_write after insert or update or delete on public.buy_requests
  for each row execute function private.broadcast_row_change('wallet', 'admin:queues');
create trigger broadcast_change_after_write after insert or update or delete on public.sell_requests
  for each row execute function private.broadcast_row_change('wallet', 'admin:queues');
create trigger broadcast_change_after_write after insert or update or delete on public.withdraw_requests
  for each row execute function private.broadcast_row_change('wallet', 'admin:queues');
create trigger broadcast_change_after_write after insert or update or delete on public.transactions
  for each row execute function private.broadcast_row_change('wallet');
create trigger broadcast_change_after_write after insert or update or delete on public.notifications
  for each row execute function private.broadcast_row_change('account');
-- A new sign-in and an ended session; a refresh (an update) changes nothing the list shows but its time.
create trigger broadcast_change_after_write after insert or delete on auth.sessions
  for each row execute function private.broadcast_row_change('account');

create policy "People can join their own account topic"
  on realtime.messages for select to authenticated
  using (
    extension = 'broadcast'
    and (select realtime.topic()) = 'user:' || (select auth.uid())::text || ':account'
  );
comment on policy "People can join their own account topic" on realtime.messages is
  'A person''s channel user:<their id>:account (notifications, sessions, their lock and security hold): only theirs.';

create policy "People can join their own wallet topic when they may read their money"
  on realtime.messages for select to authenticated
  using (
    extension = 'broadcast'
    and (select realtime.topic()) = 'user:' || (select auth.uid())::text || ':wallet'
    and (select private.session_is_aal2() or not private.has_verified_factor())
  );
comment on policy "People can join their own wallet topic when they may read their money" on realtime.messages is
  'A person''s channel user:<their id>:wallet (requests, transactions): only theirs, and, as their money, only at '
  'aal2 once they have a verified factor.';

create policy "Admins at aal2 can join the admin queues topic"
  on realtime.messages for select to authenticated
  using (
    extension = 'broadcast'
    and (select realtime.topic()) = 'admin:queues'
    and (select private.is_admin())
  );
comment on policy "Admins at aal2 can join the admin queues topic" on realtime.messages is
  'The channel admin:queues (every buy, sell and withdraw request, second approval, lock and security hold): '
  'admins, at aal2 only (private.is_admin()).';

-- A first admin's approval that waits for a second admin (public.second_approvals) changes what every admin's
-- queue shows without changing the request's row: it is broadcast on the admins' topic too.
create trigger broadcast_change_after_write after insert or update or delete on public.second_approvals
  for each row execute function private.broadcast_row_change('wallet', 'admin:queues');

-- A lock ("this wasn't me") or a security hold changes what the admin queues show (the lock or hold on each of
-- the person's open rows, no Approve) and what the person's own pages say, without changing any request row.
-- So their rows are broadcast as the requests are: on the person's account topic and on admin:queues. Both
-- tables are private: a broadcast of them carries no column (private.broadcast_row_change leaves out what
-- signed-in people may not select), only which table changed and how; the receivers read the state again.

create trigger broadcast_change_after_write after insert or update or delete on private.withdrawal_locks
  for each row execute function private.broadcast_row_change('account', 'admin:queues');
comment on trigger broadcast_change_after_write on private.withdrawal_locks is
  'A lock made or lifted: told on the person''s account topic and on admin:queues, without the row''s columns.';
create trigger broadcast_change_after_write after insert or update or delete on private.security_holds
  for each row execute function private.broadcast_row_change('account', 'admin:queues');
comment on trigger broadcast_change_after_write on private.security_holds is
  'A security hold started or ended early: told on the person''s account topic and on admin:queues, without '
  'the row''s columns.';

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
