-- Maker-checker, the four-eyes rule (issue 26). One admin with their code could create a deposit to their own
-- account, complete it, and approve their own buy, sell and withdraw requests. Now:
--   - no admin decides a request of their own account or makes or completes a deposit to it (the decision
--     functions refuse, and the ledger's gate trigger refuses any complete entry written for oneself);
--   - a decision that moves more than `second_admin_above` (Settings, 1,000 USD by default) takes two admins:
--     the first one's approval is recorded as a proposal in `second_approvals` (audited) and moves nothing;
--     another admin's approval confirms it (audited, naming both) and moves the money. The queues show the
--     proposal ("awaiting a second admin").

alter table public.transaction_limits
  add column second_admin_above numeric not null default 1000,
  add constraint transaction_limits_second_admin_above_is_usd
    check (second_admin_above >= 0 and second_admin_above < 1000000000000
      and second_admin_above = round(second_admin_above, 2));
comment on column public.transaction_limits.second_admin_above is
  'USD: an approval or deposit completion moving more than this needs a second admin''s confirmation.';
grant update (second_admin_above) on table public.transaction_limits to authenticated;

create or replace function private.audit_settings_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_table_name = 'status_types' then
    perform private.write_audit(
      'status_type.' || lower(tg_op),
      'status_types',
      coalesce(new.id, old.id),
      jsonb_build_object('name', coalesce(new.name, old.name))
    );
  else
    perform private.write_audit(
      'transaction_limits.update',
      'transaction_limits',
      null,
      jsonb_build_object(
        'old', jsonb_build_object(
          'min_amount', old.min_amount, 'max_amount', old.max_amount, 'second_admin_above', old.second_admin_above
        ),
        'new', jsonb_build_object(
          'min_amount', new.min_amount, 'max_amount', new.max_amount, 'second_admin_above', new.second_admin_above
        )
      )
    );
  end if;
  return null;
end;
$$;

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
    check (target_table in ('buy_requests', 'sell_requests', 'withdraw_requests', 'transactions')),
  constraint second_approvals_two_admins check (confirmed_by is distinct from proposed_by),
  constraint second_approvals_confirmed_together check ((confirmed_by is null) = (confirmed_at is null))
);
comment on table public.second_approvals is
  'Four-eyes approvals: the first admin''s approval of a decision above second_admin_above (a proposal) and '
  'the second admin''s confirmation. Written only by the decision functions.';
comment on column public.second_approvals.target_table is 'The table of the request or entry decided.';
comment on column public.second_approvals.target_id is 'The request or entry decided.';
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

create function private.awaits_second_admin(p_target_table text, p_target_id uuid, p_amount numeric)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  proposal public.second_approvals;
begin
  if p_amount <= (select second_admin_above from public.transaction_limits) then
    return false;
  end if;
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
comment on function private.awaits_second_admin(text, uuid, numeric) is
  'Four eyes: true when this approval of more than second_admin_above was only recorded as a proposal (the '
  'caller then moves nothing); false when it may go ahead (small enough, or confirming another admin''s).';
revoke execute on function private.awaits_second_admin(text, uuid, numeric) from public;

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
  if wallet.available - request.amount < 0 then
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

create or replace function private.reject_buy_request(request_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  request public.buy_requests;
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
    set status = 'rejected', decided_at = now(), decided_by = (select auth.uid())
    where id = request.id;
  perform private.write_audit(
    'buy_request.reject',
    'buy_requests',
    request.id,
    jsonb_build_object('user_id', request.user_id, 'amount', request.amount)
  );
end;
$$;

create or replace function private.approve_sell_request(request_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  request public.sell_requests;
  held record;
  fill_price numeric;
  credit numeric;
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
  perform private.assert_money_gate(request.user_id, 'sell', 'admin');
  perform private.assert_fillable('sell', request.cryptocurrency, request.expires_at, request.limit_price, null);

  perform private.lock_wallet(request.user_id);
  select * into held from private.held_quantity(request.user_id, request.cryptocurrency);
  if held.quantity < request.quantity then
    raise exception 'Insufficient %', request.cryptocurrency using errcode = 'P0001';
  end if;
  fill_price := private.current_price(request.cryptocurrency);
  perform private.assert_fillable('sell', request.cryptocurrency, request.expires_at, request.limit_price, fill_price);
  credit := trunc(request.quantity * fill_price, 2);
  if credit < 0.01 then
    raise exception 'This sale is worth less than $0.01 at the current price' using errcode = 'P0001';
  end if;
  if private.awaits_second_admin('sell_requests', request.id, credit) then
    return;
  end if;

  insert into public.transactions (user_id, type, amount, status, cryptocurrency, sell_request_id, quantity, price)
  values (request.user_id, 'sell', credit, 'complete', request.cryptocurrency, request.id, request.quantity, fill_price);
  update public.sell_requests
    set status = 'approved', decided_at = now(), decided_by = (select auth.uid())
    where id = request.id;
  perform private.write_audit(
    'sell_request.approve',
    'sell_requests',
    request.id,
    jsonb_build_object(
      'user_id', request.user_id,
      'cryptocurrency', request.cryptocurrency,
      'quantity', request.quantity,
      'price', fill_price,
      'limit_price', request.limit_price,
      'amount', credit
    )
  );
end;
$$;

create or replace function private.reject_sell_request(request_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  request public.sell_requests;
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
    set status = 'rejected', decided_at = now(), decided_by = (select auth.uid())
    where id = request.id;
  perform private.write_audit(
    'sell_request.reject',
    'sell_requests',
    request.id,
    jsonb_build_object('user_id', request.user_id, 'cryptocurrency', request.cryptocurrency, 'quantity', request.quantity)
  );
end;
$$;

create or replace function private.set_withdraw_request_status(request_id uuid, new_status text) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  request public.withdraw_requests;
  wallet public.wallet_balances;
  wanted text := btrim(new_status);
begin
  perform private.assert_admin();
  perform private.assert_known_status(wanted, array['pending', 'approved', 'rejected']);
  select * into request from public.withdraw_requests where id = request_id for update;
  if not found then
    raise exception 'Withdraw request not found' using errcode = 'P0001';
  end if;
  if request.status in ('approved', 'rejected') then
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
      decided_at = case when wanted in ('approved', 'rejected') then now() end,
      decided_by = case when wanted in ('approved', 'rejected') then (select auth.uid()) end
    where id = request.id;
  perform private.write_audit(
    'withdraw_request.set_status',
    'withdraw_requests',
    request.id,
    jsonb_build_object('user_id', request.user_id, 'amount', request.amount, 'old', request.status, 'new', wanted)
  );
end;
$$;

create or replace function private.set_transaction_status(transaction_id uuid, new_status text) returns void
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
  -- Said here with the same text the trigger uses, before any lock on the person's wallet is taken.
  if entry.buy_request_id is not null or entry.withdraw_request_id is not null then
    raise exception 'Transactions of approved requests are final' using errcode = 'P0001';
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

create or replace function public.create_deposit(user_id uuid, amount numeric, idempotency_key uuid)
returns public.transactions
language plpgsql
security definer
set search_path = ''
as $$
declare
  earlier jsonb;
  created public.transactions;
begin
  perform private.assert_admin();
  earlier := private.replay_idempotent_call(
    idempotency_key,
    'create_deposit',
    jsonb_build_object('user_id', user_id, 'amount', amount)
  );
  if earlier is not null then
    return jsonb_populate_record(null::public.transactions, earlier);
  end if;
  perform 1 from public.profiles where id = create_deposit.user_id and closed_at is null;
  if not found then
    raise exception 'User not found' using errcode = 'P0001';
  end if;
  perform private.assert_not_own_account(create_deposit.user_id);
  insert into public.transactions (user_id, type, amount, status)
  values (create_deposit.user_id, 'deposit', create_deposit.amount, 'pending')
  returning * into created;
  perform private.remember_idempotent_response(idempotency_key, to_jsonb(created));
  return created;
end;
$$;
