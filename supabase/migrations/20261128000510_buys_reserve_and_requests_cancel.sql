-- Buys as orders (issue 30). A pending buy reserves its USD from submission, as an open withdrawal does: the
-- available balance drops at once and is released on rejection, expiry or cancellation. The owner may cancel a
-- pending buy, sell or withdraw request (cancel_request); admins give a reason when they reject, shown to the
-- person; the person's lists read the limit, expiry, fill price and quantity from the *_with_fill views.
-- Cancelled is final (as approved and rejected), also for a withdrawal an admin marks cancelled.

alter table public.buy_requests add column rejection_reason text;
alter table public.buy_requests add constraint buy_requests_rejection_reason_shape check (
  rejection_reason is null or (status = 'rejected' and char_length(rejection_reason) between 1 and 500)
);
alter table public.sell_requests add column rejection_reason text;
alter table public.sell_requests add constraint sell_requests_rejection_reason_shape check (
  rejection_reason is null or (status = 'rejected' and char_length(rejection_reason) between 1 and 500)
);
alter table public.withdraw_requests add column rejection_reason text;
alter table public.withdraw_requests add constraint withdraw_requests_rejection_reason_shape check (
  rejection_reason is null or (status = 'rejected' and char_length(rejection_reason) between 1 and 500)
);
grant select (rejection_reason) on table public.withdraw_requests to authenticated;

comment on column public.buy_requests.status is
  'pending until decided by approve_buy_request or reject_buy_request, or cancelled by its owner (cancel_request); '
  'while pending and unexpired it reserves its amount from the available balance.';

comment on column public.buy_requests.rejection_reason is 'Why the admin rejected it, shown to the person (1 to 500 characters).';

comment on column public.buy_requests.decided_at is 'When an admin approved or rejected the request, or its owner cancelled it.';

comment on column public.buy_requests.decided_by is 'The admin who decided, or the owner who cancelled.';

comment on column public.withdraw_requests.status is
  'pending, approved, rejected, cancelled (by its owner or an admin) or an admin-defined status type; approved, '
  'rejected and cancelled are final, and only the others reserve the amount.';

comment on column public.withdraw_requests.rejection_reason is
  'Why the admin rejected it, shown to the person (1 to 500 characters).';

comment on column public.sell_requests.status is
  'pending until decided by approve_sell_request or reject_sell_request, or cancelled by its owner (cancel_request).';

comment on column public.sell_requests.rejection_reason is
  'Why the admin rejected it, shown to the person (1 to 500 characters).';

comment on type public.request_status is
  'Life cycle of a buy or sell request: pending until an admin approves or rejects it or its owner cancels it.';

create index buy_requests_pending_idx on public.buy_requests (user_id)
  include (amount, expires_at) where status = 'pending';
comment on index public.buy_requests_pending_idx is 'The USD a person''s pending buys reserve (wallet_balances).';

create or replace function private.keep_decided_requests_final() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.status::text in ('approved', 'rejected', 'cancelled')
    and (
      (to_jsonb(new) - 'decided_by') is distinct from (to_jsonb(old) - 'decided_by')
      or (new.decided_by is not null and new.decided_by is distinct from old.decided_by)
    )
  then
    raise exception 'Request has already been decided' using errcode = 'P0001';
  end if;
  return new;
end;
$$;
comment on function private.keep_decided_requests_final() is
  'Refuses any change to an approved, rejected or cancelled buy, sell or withdraw request (its decider may only '
  'be cleared).';


drop view public.buy_requests_with_user;
drop view public.withdraw_requests_with_user;
drop view public.sell_requests_with_user;

create or replace view public.wallet_balances
with (security_invoker = true)
as
select
  profiles.id as user_id,
  profiles.balance,
  coalesce(open_requests.reserved, 0) as reserved,
  profiles.balance - coalesce(open_requests.reserved, 0) as available
from public.profiles
left join lateral (
  select
    coalesce((
      select sum(withdraw_requests.amount)
      from public.withdraw_requests
      where withdraw_requests.user_id = profiles.id
        and withdraw_requests.status not in ('approved', 'rejected', 'cancelled')
    ), 0)
    + coalesce((
      select sum(buy_requests.amount)
      from public.buy_requests
      where buy_requests.user_id = profiles.id
        and buy_requests.status = 'pending'
        and buy_requests.expires_at > now()
    ), 0) as reserved
) as open_requests on true;
comment on view public.wallet_balances is
  'Balance, amount reserved by open withdraw requests and pending buy requests, and the available rest, per '
  'person. Security invoker: a person sees their own row, an admin every row. The RPCs read it too, so it is '
  'computed in one place.';
comment on column public.wallet_balances.balance is 'Ledger balance (profiles.balance).';
comment on column public.wallet_balances.reserved is
  'Open withdraw requests (not approved, rejected or cancelled) plus pending buy requests that have not expired: '
  'a buy reserves its USD from submission, as a withdrawal does.';
comment on column public.wallet_balances.available is
  'balance - reserved: what a new buy or withdraw request may take; every request and approval keeps it at or '
  'above zero under the person''s lock.';

create or replace function private.approve_buy_request(request_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  request public.buy_requests;
  wallet public.wallet_balances;
  fill_price numeric;
  bought numeric;
begin
  perform private.assert_admin();
  select * into request from public.buy_requests where id = request_id for update;
  if not found then
    raise exception 'Buy request not found' using errcode = 'P0001';
  end if;
  if request.status <> 'pending' then
    raise exception 'Request has already been decided' using errcode = 'P0001';
  end if;
  perform private.assert_not_own_account(request.user_id);
  perform private.assert_money_gate(request.user_id, 'buy', 'admin');
  perform private.assert_fillable('buy', request.cryptocurrency, request.expires_at, request.limit_price, null);

  wallet := private.lock_wallet(request.user_id);
  -- Unexpired (checked just above, at the same now()), the request reserves its own amount already: paying it
  -- must leave what the person's other open requests reserve covered.
  if wallet.available < 0 then
    raise exception 'Insufficient balance' using errcode = 'P0001';
  end if;
  fill_price := private.current_price(request.cryptocurrency);
  perform private.assert_fillable('buy', request.cryptocurrency, request.expires_at, request.limit_price, fill_price);
  if private.awaits_second_admin('buy_requests', request.id, request.amount) then
    return;
  end if;
  bought := private.coin_quantity(request.amount, fill_price);

  insert into public.transactions (user_id, type, amount, status, cryptocurrency, buy_request_id, quantity, price)
  values (request.user_id, 'buy', request.amount, 'complete', request.cryptocurrency, request.id, bought, fill_price);
  update public.buy_requests
    set status = 'approved', decided_at = now(), decided_by = (select auth.uid())
    where id = request.id;
  perform private.write_audit(
    'buy_request.approve',
    'buy_requests',
    request.id,
    jsonb_build_object(
      'user_id', request.user_id,
      'amount', request.amount,
      'cryptocurrency', request.cryptocurrency,
      'price', fill_price,
      'limit_price', request.limit_price,
      'quantity', bought
    )
  );
end;
$$;
comment on function private.approve_buy_request(uuid) is
  'The decision behind public.approve_buy_request (called only with a claimed idempotency key): refuses an '
  'expired request; under the person''s lock, takes the amount it reserved from the balance (''Insufficient '
  'balance'' if the other open requests would no longer be covered) and records a complete buy entry with the '
  'quantity bought at the current price, refused when that price is above the request''s limit.';

create function private.assert_rejection_reason(p_reason text) returns text
language plpgsql
immutable
set search_path = ''
as $$
begin
  if p_reason is null or btrim(p_reason) = '' then
    return null;
  end if;
  if char_length(btrim(p_reason)) > 500 then
    raise exception 'The reason can be at most 500 characters' using errcode = 'P0001';
  end if;
  return btrim(p_reason);
end;
$$;
comment on function private.assert_rejection_reason(text) is
  'The reason an admin gives for a rejection, trimmed (null when blank); refuses more than 500 characters.';

revoke execute on function private.assert_rejection_reason(text) from public;

drop function private.reject_buy_request(uuid);

create function private.reject_buy_request(request_id uuid, reason text) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  request public.buy_requests;
  given text := private.assert_rejection_reason(reason);
begin
  perform private.assert_admin();
  select * into request from public.buy_requests where id = request_id for update;
  if not found then
    raise exception 'Buy request not found' using errcode = 'P0001';
  end if;
  if request.status <> 'pending' then
    raise exception 'Request has already been decided' using errcode = 'P0001';
  end if;
  perform private.assert_not_own_account(request.user_id);

  update public.buy_requests
    set status = 'rejected', decided_at = now(), decided_by = (select auth.uid()), rejection_reason = given
    where id = request.id;
  perform private.write_audit(
    'buy_request.reject',
    'buy_requests',
    request.id,
    jsonb_build_object('user_id', request.user_id, 'amount', request.amount, 'reason', given)
  );
end;
$$;
comment on function private.reject_buy_request(uuid, text) is
  'The decision behind public.reject_buy_request (called only with a claimed idempotency key): records the '
  'reason and releases the reserved amount; no money moves.';

drop function private.set_withdraw_request_status(uuid, text);

create function private.set_withdraw_request_status(request_id uuid, new_status text, reason text) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  request public.withdraw_requests;
  wallet public.wallet_balances;
  wanted text := btrim(new_status);
  given text := private.assert_rejection_reason(reason);
begin
  perform private.assert_admin();
  perform private.assert_known_status(wanted, array['pending', 'approved', 'rejected', 'cancelled']);
  select * into request from public.withdraw_requests where id = request_id for update;
  if not found then
    raise exception 'Withdraw request not found' using errcode = 'P0001';
  end if;
  if request.status in ('approved', 'rejected', 'cancelled') then
    raise exception 'Request has already been decided' using errcode = 'P0001';
  end if;
  perform private.assert_not_own_account(request.user_id);

  if wanted = 'approved' then
    perform private.assert_money_gate(request.user_id, 'withdraw', 'admin');
    -- The amount was reserved while open; paying it out must still leave the ledger balance covered.
    wallet := private.lock_wallet(request.user_id);
    if wallet.balance - request.amount < 0 then
      raise exception 'Insufficient balance' using errcode = 'P0001';
    end if;
    if private.awaits_second_admin('withdraw_requests', request.id, request.amount) then
      return;
    end if;
    insert into public.transactions (user_id, type, amount, status, withdraw_request_id)
    values (request.user_id, 'withdraw', request.amount, 'complete', request.id);
  end if;

  update public.withdraw_requests
    set status = wanted,
      decided_at = case when wanted in ('approved', 'rejected', 'cancelled') then now() end,
      decided_by = case when wanted in ('approved', 'rejected', 'cancelled') then (select auth.uid()) end,
      rejection_reason = case when wanted = 'rejected' then given end
    where id = request.id;
  perform private.write_audit(
    'withdraw_request.set_status',
    'withdraw_requests',
    request.id,
    jsonb_build_object(
      'user_id', request.user_id, 'amount', request.amount, 'old', request.status, 'new', wanted, 'reason', given
    )
  );
end;
$$;
comment on function private.set_withdraw_request_status(uuid, text, text) is
  'The decision behind public.set_withdraw_request_status (called only with a claimed idempotency key): '
  'approved records a complete withdraw transaction; approved, rejected (with the reason given) and cancelled '
  'are final and release the reserved amount; any other status is a label on the open request.';

revoke execute on function private.reject_buy_request(uuid, text) from public, anon, authenticated, service_role;
revoke execute on function private.set_withdraw_request_status(uuid, text, text)
  from public, anon, authenticated, service_role;

drop function public.reject_buy_request(uuid, uuid);

create function public.reject_buy_request(
  request_id uuid,
  idempotency_key uuid default null,
  reason text default null
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  if private.replay_idempotent_call(
    idempotency_key,
    'reject_buy_request',
    jsonb_build_object('request_id', request_id, 'reason', private.assert_rejection_reason(reason))
  ) is null then
    perform private.reject_buy_request(request_id, reason);
  end if;
end;
$$;
comment on function public.reject_buy_request(uuid, uuid, text) is
  'Admin only. Rejects a pending buy request once per idempotency key (required), with the reason the person '
  'is shown: a retried rejection answers success again.';

drop function public.set_withdraw_request_status(uuid, text, uuid);

create function public.set_withdraw_request_status(
  request_id uuid,
  new_status text,
  idempotency_key uuid default null,
  reason text default null
) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  if private.replay_idempotent_call(
    idempotency_key,
    'set_withdraw_request_status',
    jsonb_build_object(
      'request_id', request_id, 'new_status', btrim(new_status), 'reason', private.assert_rejection_reason(reason)
    )
  ) is null then
    perform private.set_withdraw_request_status(request_id, new_status, reason);
  end if;
end;
$$;
comment on function public.set_withdraw_request_status(uuid, text, uuid, text) is
  'Admin only. Sets a withdraw request''s status once per idempotency key (required): approved pays out, '
  'approved, rejected (with the reason the person is shown) and cancelled are final; a retried decision answers '
  'success again.';

revoke execute on function public.reject_buy_request(uuid, uuid, text) from public, anon, authenticated, service_role;
grant execute on function public.reject_buy_request(uuid, uuid, text) to authenticated;
revoke execute on function public.set_withdraw_request_status(uuid, text, uuid, text)
  from public, anon, authenticated, service_role;
grant execute on function public.set_withdraw_request_status(uuid, text, uuid, text) to authenticated;

create or replace function private.close_profile() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  wallet public.wallet_balances;
begin
  -- Under the person's lock, so no approval lands between the checks and the closing.
  wallet := private.lock_wallet(old.id);
  if wallet.balance <> 0 then
    raise exception 'This person still holds % USD: pay it out before closing the account',
      private.format_usd(wallet.balance) using errcode = 'P0001';
  end if;
  if exists (select from public.holdings where holdings.user_id = old.id and quantity > 0) then
    raise exception 'This person still holds coins: they must be sold before closing the account'
      using errcode = 'P0001';
  end if;
  if exists (select from public.buy_requests where buy_requests.user_id = old.id and status = 'pending')
    or exists (select from public.sell_requests where sell_requests.user_id = old.id and status = 'pending')
    or exists (
      select from public.withdraw_requests
      where withdraw_requests.user_id = old.id and status not in ('approved', 'rejected', 'cancelled')
    )
    or exists (select from public.transactions where transactions.user_id = old.id and status <> 'complete')
  then
    raise exception 'This person has open requests or pending transactions: decide them before closing the account'
      using errcode = 'P0001';
  end if;
  update public.profiles set email = null, full_name = null, closed_at = now() where id = old.id;
  delete from public.watchlist where watchlist.user_id = old.id;
  return old;
end;
$$;
comment on function private.close_profile() is
  'Before an Auth user is deleted: refuses while they hold money, coins or open requests; otherwise leaves the '
  'profile closed, without name or e-mail, and drops the watchlist. Auth''s own rows (identities, factors, '
  'sessions) and notifications, security e-mails and holds go by their cascades.';

create or replace function private.money_gate(p_user_id uuid, p_movement text, p_audience text default 'admin')
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
  if p_movement is null or p_movement not in ('deposit', 'buy', 'sell', 'withdraw', 'cancel') then
    raise exception 'Unknown movement of money: %', p_movement using errcode = 'P0001';
  end if;
  if p_movement <> 'deposit' and exists (select from private.withdrawal_locks where user_id = p_user_id) then
    if p_audience = 'admin' then
      return 'Locked: this person reported a change they did not make ("this wasn''t me"). Nothing but '
        || 'deposits moves until an admin ends the lock on Settings.';
    end if;
    if p_movement = 'cancel' then
      return 'Requests cannot be cancelled while your account is locked because you reported a change you did '
        || 'not make. Contact support to unlock it.';
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
  'The one rule of a person''s state for every movement of money or coins (deposit, buy, sell, withdraw, and a '
  'person cancelling their request): null when it may move, else why not, worded for the admin (default) or the '
  'person. A lock ("this wasn''t me") stops all but deposits; a security hold stops money leaving (withdrawals), '
  'never a cancellation (which keeps the money in).';

create or replace function private.notify_request_decision() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  what text := case tg_table_name when 'buy_requests' then 'buy_request' else 'withdraw_request' end;
  decision text := new.status::text;
  because text := case when new.rejection_reason is not null then format(' Reason: %s', new.rejection_reason) end;
begin
  perform private.notify(
    new.user_id,
    what || '.' || decision,
    case what when 'buy_request' then 'Buy request ' else 'Withdrawal ' end || decision,
    case what
      -- Read from the row as JSON: a withdraw request has no cryptocurrency column to name.
      when 'buy_request' then format('Your request to buy $%s of %s was %s.',
        private.format_usd(new.amount), initcap(to_jsonb(new) ->> 'cryptocurrency'), decision)
      else format('Your withdrawal of $%s was %s.', private.format_usd(new.amount), decision)
    end || coalesce(because, '')
  );
  return null;
end;
$$;
comment on function private.notify_request_decision() is
  'Tells the person their buy or withdraw request was approved or rejected (with the admin''s reason).';

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
  where user_id = email.user_id and status not in ('approved', 'rejected', 'cancelled');
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

drop function private.reject_sell_request(uuid);

create function private.reject_sell_request(request_id uuid, reason text) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  request public.sell_requests;
  given text := private.assert_rejection_reason(reason);
begin
  perform private.assert_admin();
  select * into request from public.sell_requests where id = request_id for update;
  if not found then
    raise exception 'Sell request not found' using errcode = 'P0001';
  end if;
  if request.status <> 'pending' then
    raise exception 'Request has already been decided' using errcode = 'P0001';
  end if;
  perform private.assert_not_own_account(request.user_id);

  update public.sell_requests
    set status = 'rejected', decided_at = now(), decided_by = (select auth.uid()), rejection_reason = given
    where id = request.id;
  perform private.write_audit(
    'sell_request.reject',
    'sell_requests',
    request.id,
    jsonb_build_object(
      'user_id', request.user_id,
      'cryptocurrency', request.cryptocurrency,
      'quantity', request.quantity,
      'reason', given
    )
  );
end;
$$;
comment on function private.reject_sell_request(uuid, text) is
  'The decision behind public.reject_sell_request (called only with a claimed idempotency key): records the '
  'reason and frees the reserved quantity; no money moves.';

revoke execute on function private.reject_sell_request(uuid, text) from public, anon, authenticated, service_role;

drop function public.reject_sell_request(uuid, uuid);

create function public.reject_sell_request(
  request_id uuid,
  idempotency_key uuid default null,
  reason text default null
) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  if private.replay_idempotent_call(
    idempotency_key,
    'reject_sell_request',
    jsonb_build_object('request_id', request_id, 'reason', private.assert_rejection_reason(reason))
  ) is null then
    perform private.reject_sell_request(request_id, reason);
  end if;
end;
$$;
comment on function public.reject_sell_request(uuid, uuid, text) is
  'Admin only. Rejects a pending sell request once per idempotency key (required), with the reason the person '
  'is shown; a retried rejection answers success again.';

revoke execute on function public.reject_sell_request(uuid, uuid, text) from public, anon, authenticated, service_role;
grant execute on function public.reject_sell_request(uuid, uuid, text) to authenticated;

create or replace function private.notify_sell_decision() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  credit numeric := (select amount from public.transactions where sell_request_id = new.id);
begin
  perform private.notify(
    new.user_id,
    'sell_request.' || new.status::text,
    'Sell request ' || new.status::text,
    format('Your request to sell %s %s was %s', trim_scale(new.quantity), initcap(new.cryptocurrency), new.status)
      || case when credit is null then '.' else format(': $%s was added to your balance.', private.format_usd(credit)) end
      || case when new.rejection_reason is null then '' else ' Reason: ' || new.rejection_reason end
  );
  return null;
end;
$$;
comment on function private.notify_sell_decision() is
  'Tells the person their sell request was approved (with the USD credited) or rejected (with the admin''s reason).';

create or replace function public.create_buy_request(
  cryptocurrency text,
  amount numeric,
  idempotency_key uuid default null,
  limit_price numeric default null,
  expires_at timestamptz default null
)
returns public.buy_requests
language plpgsql
security definer
set search_path = ''
as $$
declare
  earlier jsonb;
  created public.buy_requests;
  left_over numeric;
begin
  earlier := private.replay_idempotent_call(
    idempotency_key,
    'create_buy_request',
    jsonb_build_object(
      'cryptocurrency', cryptocurrency, 'amount', amount, 'limit_price', limit_price, 'expires_at', expires_at
    )
  );
  if earlier is not null then
    return jsonb_populate_record(null::public.buy_requests, earlier);
  end if;
  perform private.assert_price_protection(create_buy_request.limit_price, create_buy_request.expires_at);
  -- Under the person's lock, as a withdrawal: the request reserves its amount the moment it exists, so two
  -- buys submitted at once cannot both count on the same dollars.
  perform private.lock_wallet((select auth.uid()));
  -- Pending, for the caller; the triggers check the amount, the limits, the step-up and the money gate.
  insert into public.buy_requests (user_id, cryptocurrency, amount, limit_price, expires_at)
  values (
    (select auth.uid()),
    create_buy_request.cryptocurrency,
    create_buy_request.amount,
    create_buy_request.limit_price,
    coalesce(create_buy_request.expires_at, now() + interval '24 hours')
  )
  returning * into created;
  select available into left_over from public.wallet_balances where user_id = created.user_id;
  if left_over < 0 then
    raise exception 'Insufficient balance (including all pending requests)' using errcode = 'P0001';
  end if;
  perform private.write_audit(
    'buy_request.create',
    'buy_requests',
    created.id,
    jsonb_build_object(
      'user_id', created.user_id,
      'cryptocurrency', created.cryptocurrency,
      'amount', created.amount,
      'limit_price', created.limit_price,
      'expires_at', created.expires_at
    )
  );
  perform private.remember_idempotent_response(idempotency_key, to_jsonb(created));
  return created;
end;
$$;
comment on function public.create_buy_request(text, numeric, uuid, numeric, timestamptz) is
  'A signed-in person''s pending buy request, once per idempotency key (required; a repeat returns the request '
  'it created), with an optional limit price (most USD per coin) and expiry (default 24 hours). It reserves its '
  'amount at once: under the person''s lock, refused with ''Insufficient balance (including all pending '
  'requests)'' when the available balance (after open withdrawals and pending buys) does not cover it. Amount '
  'and limits are checked by the table''s trigger.';

create view public.buy_requests_with_user
with (security_invoker = true)
as
select
  buy_requests.id,
  buy_requests.user_id,
  buy_requests.cryptocurrency,
  buy_requests.amount,
  buy_requests.status,
  buy_requests.date,
  buy_requests.decided_at,
  buy_requests.decided_by,
  profiles.full_name,
  profiles.email,
  (select wallet_balances.available from public.wallet_balances
   where wallet_balances.user_id = buy_requests.user_id)
    + case when buy_requests.status = 'pending' and buy_requests.expires_at > now() then buy_requests.amount else 0 end
    as available,
  buy_requests.limit_price,
  buy_requests.expires_at,
  buy_requests.status = 'pending' and buy_requests.expires_at <= now() as expired,
  case when buy_requests.status = 'pending' then private.fresh_price(buy_requests.cryptocurrency) end as price,
  case when buy_requests.status = 'pending' then private.money_gate(buy_requests.user_id, 'buy') end
    as held_because,
  proposal.proposed_by,
  buy_requests.rejection_reason
from public.buy_requests
left join public.profiles on profiles.id = buy_requests.user_id
left join public.second_approvals as proposal
  on proposal.target_table = 'buy_requests' and proposal.target_id = buy_requests.id
  and proposal.confirmed_at is null;
comment on view public.buy_requests_with_user is
  'Buy requests with the person''s full name and e-mail, for the admin queue. Security invoker: same rows as buy_requests.';
create view public.withdraw_requests_with_user
with (security_invoker = true)
as
select
  withdraw_requests.id,
  withdraw_requests.user_id,
  withdraw_requests.amount,
  withdraw_requests.withdraw_method,
  withdraw_requests.status,
  withdraw_requests.date,
  withdraw_requests.decided_at,
  withdraw_requests.decided_by,
  profiles.full_name,
  profiles.email,
  (select wallet_balances.available from public.wallet_balances
   where wallet_balances.user_id = withdraw_requests.user_id) as available,
  case when withdraw_requests.status not in ('approved', 'rejected', 'cancelled')
    then private.money_gate(withdraw_requests.user_id, 'withdraw') end as held_because,
  proposal.proposed_by,
  withdraw_requests.rejection_reason
from public.withdraw_requests
left join public.profiles on profiles.id = withdraw_requests.user_id
left join public.second_approvals as proposal
  on proposal.target_table = 'withdraw_requests' and proposal.target_id = withdraw_requests.id
  and proposal.confirmed_at is null;
comment on view public.withdraw_requests_with_user is
  'Withdraw requests (without encrypted_data) with the person''s full name and e-mail, for the admin queue. '
  'Security invoker: same rows as withdraw_requests.';

revoke all on table public.transactions_with_user, public.buy_requests_with_user, public.withdraw_requests_with_user
  from anon, authenticated, service_role;
grant select on table public.transactions_with_user, public.buy_requests_with_user, public.withdraw_requests_with_user
  to authenticated, service_role;

comment on column public.buy_requests_with_user.available is
  'What an approval would take from: the person''s available balance now (wallet_balances.available) plus the '
  'amount this request reserves while it is pending and unexpired.';

comment on column public.buy_requests_with_user.rejection_reason is 'Why it was rejected (shown to the person).';

comment on column public.withdraw_requests_with_user.rejection_reason is 'Why it was rejected (shown to the person).';

comment on column public.withdraw_requests_with_user.available is
  'The person''s available balance now (wallet_balances.available; open withdraw requests already reserved).';

comment on column public.buy_requests_with_user.limit_price is 'Most USD per coin the person accepts (null: no limit).';

comment on column public.buy_requests_with_user.expires_at is 'When the request expires.';

comment on column public.buy_requests_with_user.expired is 'Pending and past its expiry: it cannot be approved.';

comment on column public.buy_requests_with_user.price is
  'The current price (newest snapshot of the last 2 minutes) while pending, to set against the limit.';

create view public.sell_requests_with_user
with (security_invoker = true)
as
select
  sell_requests.id,
  sell_requests.user_id,
  sell_requests.cryptocurrency,
  sell_requests.quantity,
  sell_requests.status,
  sell_requests.date,
  sell_requests.decided_at,
  sell_requests.decided_by,
  profiles.full_name,
  profiles.email,
  coalesce(entry.price, case when sell_requests.status = 'pending' then private.fresh_price(sell_requests.cryptocurrency) end)
    as price,
  coalesce(
    entry.amount,
    case when sell_requests.status = 'pending'
      then trunc(sell_requests.quantity * private.fresh_price(sell_requests.cryptocurrency), 2)
    end
  ) as amount,
  (select holdings.quantity from public.holdings
   where holdings.user_id = sell_requests.user_id and holdings.cryptocurrency = sell_requests.cryptocurrency) as held,
  (select wallet_balances.available from public.wallet_balances
   where wallet_balances.user_id = sell_requests.user_id) as available,
  sell_requests.limit_price,
  sell_requests.expires_at,
  sell_requests.status = 'pending' and sell_requests.expires_at <= now() as expired,
  case when sell_requests.status = 'pending' then private.money_gate(sell_requests.user_id, 'sell') end
    as held_because,
  proposal.proposed_by,
  sell_requests.rejection_reason
from public.sell_requests
left join public.profiles on profiles.id = sell_requests.user_id
left join public.transactions as entry on entry.sell_request_id = sell_requests.id
left join public.second_approvals as proposal
  on proposal.target_table = 'sell_requests' and proposal.target_id = sell_requests.id
  and proposal.confirmed_at is null;
comment on view public.sell_requests_with_user is
  'Sell requests with the person''s full name and e-mail, for the admin queue. Security invoker: same rows as '
  'sell_requests.';
revoke all on table public.sell_requests_with_user from anon, authenticated, service_role;
grant select on table public.sell_requests_with_user to authenticated, service_role;

comment on column public.sell_requests_with_user.price is
  'USD per coin: the price an approved request filled at; for a pending one the current price (newest snapshot '
  'of the last 10 minutes, null without one); null for a rejected one.';

comment on column public.sell_requests_with_user.amount is
  'USD: what an approved request credited; for a pending one what approving would credit now (quantity × '
  'price, truncated to the cent).';

comment on column public.sell_requests_with_user.held is 'Coins of this kind the person holds now (holdings.quantity).';

comment on column public.sell_requests_with_user.available is
  'The person''s available USD balance now (wallet_balances.available).';

comment on column public.sell_requests_with_user.limit_price is 'Least USD per coin the person accepts (null: no limit).';

comment on column public.sell_requests_with_user.expires_at is 'When the request expires.';

comment on column public.sell_requests_with_user.rejection_reason is 'Why it was rejected (shown to the person).';

comment on column public.sell_requests_with_user.expired is
  'Pending and past its expiry: it cannot be approved and reserves nothing.';

-- The queues' comments set in a loop (19-admin-lists.sql), again for the three views made anew.
do $$
declare
  queue text;
begin
  foreach queue in array array[
    'buy_requests_with_user', 'sell_requests_with_user', 'withdraw_requests_with_user'
  ] loop
    execute format(
      'comment on column public.%I.held_because is %L', queue,
      'While open: why the money gate refuses its approval now (a lock or a security hold), in the admin''s '
        || 'words; null when it may be approved.'
    );
    execute format(
      'comment on column public.%I.proposed_by is %L', queue,
      'The admin whose approval awaits a second admin''s confirmation (second_approvals); null otherwise.'
    );
  end loop;
end;
$$;

create function public.cancel_request(kind text, request_id uuid, idempotency_key uuid default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  owner uuid;
  state text;
begin
  if kind is null or kind not in ('buy', 'sell', 'withdraw') then
    raise exception 'Unknown kind of request: %', kind using errcode = 'P0001';
  end if;
  if private.replay_idempotent_call(
    idempotency_key, 'cancel_request', jsonb_build_object('kind', kind, 'request_id', request_id)
  ) is not null then
    return;
  end if;
  -- The request first, then the person's lock: the order every money step takes.
  if kind = 'buy' then
    select user_id, status::text into owner, state from public.buy_requests where id = request_id for update;
  elsif kind = 'sell' then
    select user_id, status::text into owner, state from public.sell_requests where id = request_id for update;
  else
    select user_id, status into owner, state from public.withdraw_requests where id = request_id for update;
  end if;
  if owner is distinct from caller then
    raise exception 'Only the person who made a request can cancel it' using errcode = '42501';
  end if;
  perform private.assert_aal2_for_money(caller, (select auth.jwt()) ->> 'aal', 'cancel');
  perform private.assert_money_gate(caller, 'cancel', 'person');
  if state <> 'pending' then
    raise exception 'Only a pending request can be cancelled' using errcode = 'P0001';
  end if;
  perform private.lock_wallet(caller);

  if kind = 'buy' then
    update public.buy_requests set status = 'cancelled', decided_at = now(), decided_by = caller
    where id = request_id;
  elsif kind = 'sell' then
    update public.sell_requests set status = 'cancelled', decided_at = now(), decided_by = caller
    where id = request_id;
  else
    update public.withdraw_requests set status = 'cancelled', decided_at = now(), decided_by = caller
    where id = request_id;
  end if;
  perform private.write_audit(kind || '_request.cancel', kind || '_requests', request_id, jsonb_build_object('user_id', caller));
end;
$$;
comment on function public.cancel_request(text, uuid, uuid) is
  'The owner cancels their pending buy, sell or withdraw request (kind), once per idempotency key (required; a '
  'retry answers success again): what it reserved is free at once. Refused (42501) for anyone else, at aal1 for '
  'a person with a verified factor, during a lock (the money gate), and once the request is no longer pending.';
revoke execute on function public.cancel_request(text, uuid, uuid) from public, anon, authenticated, service_role;
grant execute on function public.cancel_request(text, uuid, uuid) to authenticated;

create view public.buy_requests_with_fill
with (security_invoker = true)
as
select
  buy_requests.id,
  buy_requests.user_id,
  buy_requests.cryptocurrency,
  buy_requests.amount,
  buy_requests.status,
  buy_requests.date,
  buy_requests.decided_at,
  buy_requests.limit_price,
  buy_requests.expires_at,
  buy_requests.status = 'pending' and buy_requests.expires_at <= now() as expired,
  buy_requests.rejection_reason,
  entry.price as fill_price,
  entry.quantity
from public.buy_requests
left join public.transactions as entry on entry.buy_request_id = buy_requests.id;
comment on view public.buy_requests_with_fill is
  'The person''s buy requests with what an approval filled: their list. Security invoker: same rows as '
  'buy_requests (and the entry only when transactions lets the caller read it).';
comment on column public.buy_requests_with_fill.expired is 'Pending and past its expiry: it reserves nothing and cannot be approved.';
comment on column public.buy_requests_with_fill.fill_price is 'USD per coin the approval filled at (null until approved).';
comment on column public.buy_requests_with_fill.quantity is 'Coins received (null until approved).';

create view public.sell_requests_with_fill
with (security_invoker = true)
as
select
  sell_requests.id,
  sell_requests.user_id,
  sell_requests.cryptocurrency,
  sell_requests.quantity,
  sell_requests.status,
  sell_requests.date,
  sell_requests.decided_at,
  sell_requests.limit_price,
  sell_requests.expires_at,
  sell_requests.status = 'pending' and sell_requests.expires_at <= now() as expired,
  sell_requests.rejection_reason,
  entry.price as fill_price,
  entry.amount
from public.sell_requests
left join public.transactions as entry on entry.sell_request_id = sell_requests.id;
comment on view public.sell_requests_with_fill is
  'The person''s sell requests with what an approval filled: their list. Security invoker: same rows as '
  'sell_requests (and the entry only when transactions lets the caller read it).';
comment on column public.sell_requests_with_fill.expired is 'Pending and past its expiry: it reserves nothing and cannot be approved.';
comment on column public.sell_requests_with_fill.fill_price is 'USD per coin the approval filled at (null until approved).';
comment on column public.sell_requests_with_fill.amount is 'USD credited (null until approved).';

revoke all on table public.buy_requests_with_fill, public.sell_requests_with_fill from anon, authenticated, service_role;
grant select on table public.buy_requests_with_fill, public.sell_requests_with_fill to authenticated;
