-- Money-moving steps, each one database transaction: deciding buy requests, creating and settling
-- withdraw requests, changing a transaction's status. Lock order everywhere: the request or
-- transaction first, then the person's profile, so concurrent steps queue instead of deadlocking.
-- The public, idempotent entry points are in 07-idempotency-keys.sql.

create function private.assert_admin() returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if private.is_admin() then
    return;
  end if;
  if exists (select 1 from public.profiles where id = (select auth.uid()) and role = 'admin') then
    raise exception 'Admins must confirm a code from their authenticator app (aal2) to do this'
      using errcode = '42501';
  end if;
  raise exception 'Only admins can do this' using errcode = '42501';
end;
$$;
comment on function private.assert_admin() is
  'Raises permission denied (42501) unless the caller is an admin at aal2, naming the missing second factor to an '
  'admin signed in with a password only.';
revoke execute on function private.assert_admin() from public;
create function private.lock_wallet(p_user_id uuid) returns public.wallet_balances
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  wallet public.wallet_balances;
begin
  perform 1 from public.profiles where id = p_user_id for update;
  if not found then
    raise exception 'User not found' using errcode = 'P0001';
  end if;
  -- A new statement after the lock: under read committed it sees every step committed before ours.
  select * into wallet from public.wallet_balances where user_id = p_user_id;
  return wallet;
end;
$$;
comment on function private.lock_wallet(uuid) is
  'Locks a person''s profile (serialising their money steps) and returns their current wallet balances.';
revoke execute on function private.lock_wallet(uuid) from public;
create function private.assert_known_status(p_status text, p_built_in text[]) returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if p_status is null or p_status = '' then
    raise exception 'Status is required' using errcode = 'P0001';
  end if;
  if not (p_status = any (p_built_in) or exists (select 1 from public.status_types where name = p_status)) then
    raise exception 'Unknown status "%"', p_status using errcode = 'P0001';
  end if;
end;
$$;
comment on function private.assert_known_status(text, text[]) is
  'Raises unless the status is one of the built-in ones given or an admin-defined status type.';
revoke execute on function private.assert_known_status(text, text[]) from public;
-- Approval: expired first, then the balance or the holdings, then the current price against the limit.
create function private.approve_buy_request(request_id uuid) returns void
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
create function private.set_transaction_status(transaction_id uuid, new_status text) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  entry public.transactions;
  wallet public.wallet_balances;
  wanted text := btrim(new_status);
  change numeric;
begin
  perform private.assert_admin();
  perform private.assert_known_status(wanted, array['pending', 'complete']);
  select * into entry from public.transactions where id = transaction_id for update;
  if not found then
    raise exception 'Transaction not found' using errcode = 'P0001';
  end if;
  -- Said here, naming what the entry is, before any lock on the person's wallet is taken (the trigger,
  -- which guards every writer, says it in general words).
  if entry.buy_request_id is not null or entry.withdraw_request_id is not null or entry.sell_request_id is not null
  then
    raise exception 'This % records an approved request: its status is final', entry.type using errcode = 'P0001';
  end if;
  perform private.assert_not_own_account(entry.user_id);

  change := private.ledger_effect(entry.type, entry.amount, wanted)
    - private.ledger_effect(entry.type, entry.amount, entry.status);
  if change < 0 then
    wallet := private.lock_wallet(entry.user_id);
    if wallet.available + change < 0 then
      raise exception 'Insufficient balance' using errcode = 'P0001';
    end if;
  end if;
  if wanted = 'complete' and entry.status <> 'complete' then
    perform private.assert_money_gate(entry.user_id, entry.type::text, 'admin');
    if private.awaits_second_admin('transactions', entry.id, entry.amount) then
      return;
    end if;
  end if;

  update public.transactions set status = wanted where id = entry.id;
  perform private.write_audit(
    'transaction.set_status',
    'transactions',
    entry.id,
    jsonb_build_object('user_id', entry.user_id, 'amount', entry.amount, 'old', entry.status, 'new', wanted)
  );
end;
$$;
comment on function private.set_transaction_status(uuid, text) is
  'The change behind public.set_transaction_status (called only with a claimed idempotency key): refused with '
  '''Insufficient balance'' when the available balance would go negative, and with ''This buy records an '
  'approved request: its status is final'' (the entry''s type named) for the entry of a buy, sell or withdraw '
  'request.';
revoke execute on function private.approve_buy_request(uuid) from public, anon, authenticated, service_role;
revoke execute on function private.reject_buy_request(uuid, text) from public, anon, authenticated, service_role;
revoke execute on function private.set_withdraw_request_status(uuid, text, text)
  from public, anon, authenticated, service_role;
revoke execute on function private.set_transaction_status(uuid, text) from public, anon, authenticated, service_role;
create type public.created_withdraw_request as (
  id uuid,
  user_id uuid,
  amount numeric,
  withdraw_method public.withdraw_method,
  status text,
  date timestamptz
);
comment on type public.created_withdraw_request is
  'What create_withdraw_request answers: the created request without its encrypted details.';
create function private.live_session_aal(p_user_id uuid, p_session_id uuid, p_refusal text) returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  session_aal text;
begin
  select coalesce(sessions.aal::text, 'aal1') into session_aal
  from auth.sessions
  where sessions.id = p_session_id
    and sessions.user_id = p_user_id
    and (sessions.not_after is null or sessions.not_after > now());
  if not found then
    raise exception '%', p_refusal using errcode = '42501';
  end if;
  return session_aal;
end;
$$;
comment on function private.live_session_aal(uuid, uuid, text) is
  'For the functions that act for a person with the service role: the assurance level of their live Auth '
  'session; refuses (42501, with p_refusal) a session that is not theirs or has ended.';
revoke execute on function private.live_session_aal(uuid, uuid, text) from public;
create function public.create_withdraw_request(
  request_id uuid,
  user_id uuid,
  session_id uuid,
  amount numeric,
  withdraw_method text,
  encrypted_data text,
  details_key_version smallint,
  details_digest text,
  idempotency_key uuid,
  payout_destination_id uuid default null
)
returns public.created_withdraw_request
language plpgsql
security definer
set search_path = ''
as $$
-- Arguments are named like the table's columns: inside queries an unqualified name is the column, and the
-- arguments are always written qualified (create_withdraw_request.amount).
#variable_conflict use_column
declare
  session_aal text := private.live_session_aal(
    create_withdraw_request.user_id,
    create_withdraw_request.session_id,
    'A withdraw request can only be made by the signed-in person for themselves'
  );
  caller uuid;
  wallet public.wallet_balances;
  created public.withdraw_requests;
  answer public.created_withdraw_request;
  earlier jsonb;
  saved_digest text;
begin
  perform private.assert_aal2_for_money(create_withdraw_request.user_id, session_aal, 'withdraw');
  -- From here the person acts, at their session's level: their id keys the idempotency record and the audit
  -- entry, and the request tables' triggers see their session (this transaction only).
  perform set_config(
    'request.jwt.claims',
    jsonb_build_object(
      'sub', create_withdraw_request.user_id,
      'role', 'authenticated',
      'aal', session_aal,
      'session_id', create_withdraw_request.session_id
    )::text,
    true
  );
  caller := create_withdraw_request.user_id;

  perform private.assert_usd_amount(create_withdraw_request.amount);
  if create_withdraw_request.withdraw_method is null
    or create_withdraw_request.withdraw_method not in ('bank', 'card', 'wallet') then
    raise exception 'Withdraw method is required' using errcode = 'P0001';
  end if;
  if create_withdraw_request.request_id is null then
    raise exception 'Request id is required' using errcode = 'P0001';
  end if;
  if create_withdraw_request.encrypted_data is null or btrim(create_withdraw_request.encrypted_data) = ''
    or create_withdraw_request.details_key_version is null then
    raise exception 'Encrypted withdrawal details are required' using errcode = 'P0001';
  end if;

  earlier := private.replay_idempotent_call(
    create_withdraw_request.idempotency_key,
    'create_withdraw_request',
    jsonb_build_object(
      'amount', create_withdraw_request.amount,
      'method', create_withdraw_request.withdraw_method,
      'details_digest', create_withdraw_request.details_digest
    )
  );
  if earlier is not null then
    return jsonb_populate_record(null::public.created_withdraw_request, earlier);
  end if;

  perform private.assert_within_limits(create_withdraw_request.amount, 'withdrawal');
  wallet := private.lock_wallet(caller);
  if wallet.available - create_withdraw_request.amount < 0 then
    raise exception 'Insufficient balance (including all withdraw requests)' using errcode = 'P0001';
  end if;

  if create_withdraw_request.payout_destination_id is not null then
    -- The details sealed for this request must be the saved destination's, not a swap made on the way.
    select details_digest into saved_digest from public.payout_destinations
    where id = create_withdraw_request.payout_destination_id and user_id = caller;
    if saved_digest is distinct from create_withdraw_request.details_digest then
      raise exception 'The payout details differ from the saved destination''s' using errcode = 'P0001';
    end if;
  end if;
  insert into public.withdraw_requests (
    id, user_id, amount, withdraw_method, encrypted_data, details_key_version, payout_destination_id
  )
  values (
    create_withdraw_request.request_id,
    caller,
    create_withdraw_request.amount,
    create_withdraw_request.withdraw_method::public.withdraw_method,
    create_withdraw_request.encrypted_data,
    create_withdraw_request.details_key_version,
    create_withdraw_request.payout_destination_id
  )
  returning * into created;
  perform private.write_audit(
    'withdraw_request.create',
    'withdraw_requests',
    created.id,
    jsonb_build_object('user_id', caller, 'amount', created.amount, 'withdraw_method', created.withdraw_method)
  );
  answer := (created.id, created.user_id, created.amount, created.withdraw_method, created.status, created.date);
  perform private.remember_idempotent_response(create_withdraw_request.idempotency_key, to_jsonb(answer));
  return answer;
end;
$$;
comment on function public.create_withdraw_request(uuid, uuid, uuid, numeric, text, text, smallint, text, uuid, uuid) is
  'The withdrawals Edge Function''s alone (service role), after it verified the person with Auth and sealed the '
  'details for this request id: acts for user_id only through their live Auth session session_id (at aal2 when '
  'they have a verified factor). Once per idempotency key; checks the limits and, under the person''s lock, the '
  'available balance; to a saved destination (payout_destination_id), that the details are its own (same '
  'digest). Returns the request without encrypted_data.';
revoke execute on function public.create_withdraw_request(uuid, uuid, uuid, numeric, text, text, smallint, text, uuid, uuid)
  from public, anon, authenticated;
grant execute on function public.create_withdraw_request(uuid, uuid, uuid, numeric, text, text, smallint, text, uuid, uuid)
  to service_role;

create table public.second_approvals (
  target_table text not null,
  target_id uuid not null,
  amount numeric not null,
  proposed_by uuid not null references public.profiles (id) on delete restrict,
  proposed_at timestamptz not null default now(),
  confirmed_by uuid references public.profiles (id) on delete restrict,
  confirmed_at timestamptz,
  primary key (target_table, target_id),
  constraint second_approvals_target_known
    check (target_table in ('buy_requests', 'sell_requests', 'withdraw_requests', 'transactions', 'account_freezes')),
  constraint second_approvals_two_admins check (confirmed_by is distinct from proposed_by),
  constraint second_approvals_confirmed_together check ((confirmed_by is null) = (confirmed_at is null))
);
comment on table public.second_approvals is
  'Four-eyes approvals: the first admin''s approval of a decision above second_admin_above (a proposal) and '
  'the second admin''s confirmation. Written only by the decision functions.';
comment on column public.second_approvals.target_table is
  'The table of the request or entry decided (account_freezes: an admin''s unfreeze of a person''s freeze).';
comment on column public.second_approvals.target_id is 'The request or entry decided, or the freeze ended (freeze_id).';
comment on column public.second_approvals.amount is 'USD moved, as the first admin saw it (a sale: at the price then).';
comment on column public.second_approvals.proposed_by is 'The admin who approved first.';
comment on column public.second_approvals.proposed_at is 'When the first admin approved.';
comment on column public.second_approvals.confirmed_by is 'The other admin whose approval moved the money.';
comment on column public.second_approvals.confirmed_at is 'When the money moved.';
create index second_approvals_proposed_by_idx on public.second_approvals (proposed_by);
comment on index public.second_approvals_proposed_by_idx is 'Keeps the profile references cheap to check.';
create index second_approvals_confirmed_by_idx on public.second_approvals (confirmed_by);
comment on index public.second_approvals_confirmed_by_idx is 'Keeps the profile references cheap to check.';

alter table public.second_approvals enable row level security;
revoke all on table public.second_approvals from anon, authenticated;
grant select on table public.second_approvals to authenticated;
create policy "Admins can read the second approvals"
  on public.second_approvals for select to authenticated
  using ((select private.is_admin()));
comment on policy "Admins can read the second approvals" on public.second_approvals is
  'The back office sees which decisions wait for a second admin.';
create policy "Only aal2 sessions can read the second approvals"
  on public.second_approvals as restrictive for select to authenticated
  using ((select coalesce(((select auth.jwt()) ->> 'aal') = 'aal2', false)));
comment on policy "Only aal2 sessions can read the second approvals" on public.second_approvals is
  'Like every table admins read: only a session that verified a code.';
alter table public.second_approvals replica identity full;
alter publication supabase_realtime add table public.second_approvals;

create function private.awaits_other_admin(p_target_table text, p_target_id uuid, p_amount numeric)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  proposal public.second_approvals;
begin
  select * into proposal from public.second_approvals
  where target_table = p_target_table and target_id = p_target_id
  for update;
  if not found then
    insert into public.second_approvals (target_table, target_id, amount, proposed_by)
    values (p_target_table, p_target_id, p_amount, (select auth.uid()));
    perform private.write_audit(
      'approval.propose', p_target_table, p_target_id, jsonb_build_object('amount', p_amount)
    );
    return true;
  end if;
  if proposal.proposed_by = (select auth.uid()) then
    raise exception 'You approved this already: it is awaiting a second admin' using errcode = 'P0001';
  end if;
  update public.second_approvals set confirmed_by = (select auth.uid()), confirmed_at = now()
  where target_table = p_target_table and target_id = p_target_id;
  perform private.write_audit(
    'approval.confirm',
    p_target_table,
    p_target_id,
    jsonb_build_object('amount', p_amount, 'proposed_by', proposal.proposed_by, 'proposed_at', proposal.proposed_at)
  );
  return false;
end;
$$;
comment on function private.awaits_other_admin(text, uuid, numeric) is
  'Maker-checker whatever the amount: true when this decision was only recorded as a proposal; false when it '
  'confirms another admin''s proposal and may go ahead (audited either way).';
revoke execute on function private.awaits_other_admin(text, uuid, numeric) from public;
create function private.awaits_second_admin(p_target_table text, p_target_id uuid, p_amount numeric)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  if p_amount <= (select second_admin_above from public.transaction_limits) then
    return false;
  end if;
  return private.awaits_other_admin(p_target_table, p_target_id, p_amount);
end;
$$;
comment on function private.awaits_second_admin(text, uuid, numeric) is
  'Four eyes: true when this approval of more than second_admin_above was only recorded as a proposal (the '
  'caller then moves nothing); false when it may go ahead (small enough, or confirming another admin''s).';
revoke execute on function private.awaits_second_admin(text, uuid, numeric) from public;
