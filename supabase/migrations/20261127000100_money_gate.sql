-- One gate for money (issue 26). A person's state, locked ("this wasn't me") or on a security hold (a
-- password, e-mail or two-factor change), was read only by the insert trigger of withdraw_requests, so an
-- approval of a withdrawal already waiting paid out after the lock. Now one rule, private.money_gate, is
-- consulted where money or coins start to move and where they do move:
--   - creating a request: BEFORE INSERT triggers on buy_requests, sell_requests and withdraw_requests;
--   - moving money: a BEFORE INSERT OR UPDATE trigger on transactions for every entry that is or becomes
--     complete (approving a buy, sell or withdrawal, completing a deposit, any status change to complete,
--     and any writer added later), so no path around the RPCs exists.
-- What it blocks, per movement (docs/architecture.md, "Money safety"):
--   movement   locked   on hold   why
--   deposit    allowed  allowed   money arriving cannot be stolen, and refusing it strands a real payment
--   buy        blocked  allowed   USD turns into coins inside the account; a locked account moves nothing
--   sell       blocked  allowed   coins turn into USD inside the account
--   withdraw   blocked  blocked   money leaves the custodian: the hold exists for this

create function private.money_gate(p_user_id uuid, p_movement text, p_audience text default 'admin')
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  hold record;
  reason text;
begin
  if p_movement is null or p_movement not in ('deposit', 'buy', 'sell', 'withdraw') then
    raise exception 'Unknown movement of money: %', p_movement using errcode = 'P0001';
  end if;
  if p_movement <> 'deposit' and exists (select from private.withdrawal_locks where user_id = p_user_id) then
    if p_audience = 'admin' then
      return 'Locked: this person reported a change they did not make ("this wasn''t me"). Nothing but '
        || 'deposits moves until an admin ends the lock on Settings.';
    end if;
    if p_movement = 'withdraw' then
      return 'Withdrawals are locked because you reported a change you did not make. Contact support to '
        || 'unlock them.';
    end if;
    return 'Buying and selling are locked because you reported a change you did not make. Contact support to '
      || 'unlock them.';
  end if;
  if p_movement <> 'withdraw' then
    return null;
  end if;
  select * into hold from private.security_hold_until(p_user_id);
  if not found then
    return null;
  end if;
  reason := case hold.change
    when 'password' then 'password was changed'
    when 'email' then 'e-mail address was changed'
    when 'factor_added' then 'two-factor authentication was added'
    else 'two-factor authentication was removed'
  end;
  if p_audience = 'admin' then
    return format(
      'On security hold until %s because their %s. No money leaves until then unless an admin ends the hold on '
        || 'Settings.',
      to_char(hold.hold_until at time zone 'UTC', 'FMDD Mon YYYY, HH24:MI "UTC"'),
      reason
    );
  end if;
  return format(
    'Withdrawals are on hold until %s because %s. To end the hold sooner, contact support.',
    to_char(hold.hold_until at time zone 'UTC', 'FMDD Mon YYYY, HH24:MI "UTC"'),
    case hold.change
      when 'password' then 'your password was changed'
      when 'email' then 'your e-mail address was changed'
      when 'factor_added' then 'two-factor authentication was added to your account'
      else 'two-factor authentication was removed from your account'
    end
  );
end;
$$;
comment on function private.money_gate(uuid, text, text) is
  'The one rule of a person''s state for every movement of money or coins (deposit, buy, sell, withdraw): null '
  'when it may move, else why not, worded for the admin (default) or the person. A lock ("this wasn''t me") '
  'stops all but deposits; a security hold stops money leaving (withdrawals).';
revoke execute on function private.money_gate(uuid, text, text) from public;
-- The admin queues (security_invoker views) show the reason on each row.
grant execute on function private.money_gate(uuid, text, text) to authenticated;

create function private.assert_money_gate(p_user_id uuid, p_movement text, p_audience text)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  refusal text := private.money_gate(p_user_id, p_movement, p_audience);
begin
  if refusal is not null and p_audience = 'admin' then
    raise exception 'Not approved. %', refusal using errcode = 'P0001';
  elsif refusal is not null then
    raise exception '%', refusal using errcode = 'P0001';
  end if;
end;
$$;
comment on function private.assert_money_gate(uuid, text, text) is
  'Raises the money gate''s refusal (P0001, for an admin after "Not approved.") when the person''s state stops '
  'this movement.';
revoke execute on function private.assert_money_gate(uuid, text, text) from public;

-- Requests: the person is told, in their words. The withdrawal trigger keeps its name and its texts.
create or replace function private.refuse_withdrawal_during_hold() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.assert_money_gate(new.user_id, 'withdraw', 'person');
  return new;
end;
$$;
comment on function private.refuse_withdrawal_during_hold() is
  'Refuses a new withdrawal the money gate stops (a lock or a security hold), whoever inserts it.';

create function private.consult_money_gate_for_request() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.assert_money_gate(new.user_id, tg_argv[0], 'person');
  return new;
end;
$$;
comment on function private.consult_money_gate_for_request() is
  'Refuses a new buy or sell request the money gate stops (the movement is the trigger''s argument).';
revoke execute on function private.consult_money_gate_for_request() from public;

create trigger consult_money_gate_before_insert
  before insert on public.buy_requests
  for each row execute function private.consult_money_gate_for_request('buy');
comment on trigger consult_money_gate_before_insert on public.buy_requests is
  'A locked person cannot ask to buy.';
create trigger consult_money_gate_before_insert
  before insert on public.sell_requests
  for each row execute function private.consult_money_gate_for_request('sell');
comment on trigger consult_money_gate_before_insert on public.sell_requests is
  'A locked person cannot ask to sell.';

create function private.assert_not_own_account(p_user_id uuid) returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if p_user_id = (select auth.uid()) then
    raise exception 'This is your own account: another admin must decide this' using errcode = 'P0001';
  end if;
end;
$$;
comment on function private.assert_not_own_account(uuid) is
  'Maker-checker: refuses an admin deciding a request of, or a deposit to, their own account.';

-- Entries: whatever writes a complete entry (an approval, a deposit's completion, an operator) asks the gate.
-- The admin reads the refusal. The ledger's own rule also says no one completes an entry to themselves: every
-- complete entry is an admin's decision (security-definer RPCs keep the caller's auth.uid()), and no one
-- checks their own (maker-checker, 20261127000120_maker_checker.sql).
create function private.consult_money_gate_for_entry() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if btrim(new.status) <> 'complete' or (tg_op = 'UPDATE' and old.status = 'complete') then
    return new;
  end if;
  perform private.assert_not_own_account(new.user_id);
  perform private.assert_money_gate(new.user_id, new.type::text, 'admin');
  return new;
end;
$$;
comment on function private.consult_money_gate_for_entry() is
  'Refuses a complete ledger entry the money gate stops, or one an admin would complete for themselves.';
revoke execute on function private.consult_money_gate_for_entry() from public;

create trigger consult_money_gate_before_write
  before insert or update of status on public.transactions
  for each row execute function private.consult_money_gate_for_entry();
comment on trigger consult_money_gate_before_write on public.transactions is
  'Every entry that is or becomes complete passes the money gate, whichever path writes it.';

-- A lock holds the person's open withdrawals (the gate refuses their approval; the queues say why) and tells
-- the person and every admin.
alter table public.notifications drop constraint notifications_kind_known;
alter table public.notifications add constraint notifications_kind_known check (kind in (
  'buy_request.approved', 'buy_request.rejected', 'sell_request.approved', 'sell_request.rejected',
  'withdraw_request.approved', 'withdraw_request.rejected', 'deposit.completed',
  'security.password', 'security.email', 'security.factor_added', 'security.factor_removed',
  'security.sign_in', 'security.withdrawals_locked', 'admin.person_locked'
));

create or replace function public.report_not_me(token uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  email private.security_emails;
  held integer;
  person public.profiles;
begin
  select * into email from private.security_emails
  where not_me_token = report_not_me.token and created_at > now() - interval '30 days';
  if not found then
    raise exception 'This link is invalid or has expired' using errcode = 'P0001';
  end if;
  insert into private.withdrawal_locks (user_id, security_email_id)
  values (email.user_id, email.id)
  on conflict (user_id) do nothing;
  if not found then
    return;
  end if;
  select count(*) into held from public.withdraw_requests
  where user_id = email.user_id and status not in ('approved', 'rejected');
  select * into person from public.profiles where id = email.user_id;
  perform private.notify(
    email.user_id,
    'security.withdrawals_locked',
    'Withdrawals locked',
    'You reported a change you did not make. Change your password and contact support to unlock withdrawals.'
      || case when held > 0 then format(' Your %s open withdrawal%s will not be paid while locked.', held,
        case when held = 1 then '' else 's' end) else '' end
  );
  perform private.notify(
    admins.id,
    'admin.person_locked',
    'Account locked',
    format(
      '%s reported a change they did not make. Their %s open withdrawal%s cannot be approved until the lock is '
        || 'ended on Settings.',
      coalesce(nullif(person.full_name, ''), person.email), held, case when held = 1 then '' else 's' end
    )
  )
  from public.profiles as admins
  where admins.role = 'admin';
  perform private.write_audit(
    'withdrawals.lock', 'profiles', email.user_id,
    jsonb_build_object('subject', email.subject, 'open_withdrawals', held), email.user_id
  );
end;
$$;
comment on function public.report_not_me(uuid) is
  'The "this wasn''t me" link of a security e-mail (valid 30 days, signed in or not): locks the person''s money '
  'at once (the money gate stops everything but deposits, open withdrawals included), tells them and every '
  'admin, audited. Only an admin lifts it (end_security_hold).';
