-- A lock ("this wasn't me") or a security hold changes what the admin queues show (the lock or hold on each of
-- the person's open rows, no Approve) and what the person's own pages say, without changing any request row.
-- So their rows are broadcast as the requests are: on the person's account topic and on admin:queues. Both
-- tables are private: a broadcast of them carries no column (private.selectable_columns keeps only what
-- signed-in people may select), only which table changed and how; the receivers read the state again.

create trigger broadcast_change_after_write after insert or update or delete on private.withdrawal_locks
  for each row execute function private.broadcast_row_change('account', 'admin:queues');
comment on trigger broadcast_change_after_write on private.withdrawal_locks is
  'A lock made or lifted: told on the person''s account topic and on admin:queues, without the row''s columns.';
create trigger broadcast_change_after_write after insert or update or delete on private.security_holds
  for each row execute function private.broadcast_row_change('account', 'admin:queues');
comment on trigger broadcast_change_after_write on private.security_holds is
  'A security hold started or ended early: told on the person''s account topic and on admin:queues, without '
  'the row''s columns.';

comment on policy "People can join their own account topic" on realtime.messages is
  'A person''s channel user:<their id>:account (notifications, sessions, their lock and security hold): only theirs.';
comment on policy "Admins at aal2 can join the admin queues topic" on realtime.messages is
  'The channel admin:queues (every buy, sell and withdraw request, second approval, lock and security hold): '
  'admins, at aal2 only (private.is_admin()).';

create function public.my_money_restrictions()
returns table (withdrawals text, buying_and_selling text, hold_until timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select gate.withdrawals, gate.buying_and_selling, hold.hold_until
  from (
    select
      private.money_gate((select auth.uid()), 'withdraw', 'person') as withdrawals,
      private.money_gate((select auth.uid()), 'buy', 'person') as buying_and_selling
  ) as gate
  left join private.security_hold_until((select auth.uid())) as hold on true
  where (select auth.uid()) is not null
    and (select private.session_is_aal2() or not private.has_verified_factor())
    and (gate.withdrawals is not null or gate.buying_and_selling is not null);
$$;
comment on function public.my_money_restrictions() is
  'The signed-in person''s own lock or security hold, in the money gate''s words for them: why withdrawals, and '
  'buying and selling, are refused now (null when allowed), and until when a hold runs. No row when nothing is '
  'refused, and, as their money, none at aal1 once they have a verified factor.';
revoke execute on function public.my_money_restrictions() from public, anon, authenticated, service_role;
grant execute on function public.my_money_restrictions() to authenticated;
