-- A ledger entry that records an approved buy, sell or withdraw request is final. The admin list now says
-- which entries are (`settled`), so it offers no status change the database refuses, and
-- set_transaction_status refuses a sell's entry as it does a buy's or a withdrawal's, naming the entry's type.
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
create or replace view public.transactions_with_user
with (security_invoker = true)
as
select
  transactions.id,
  transactions.user_id,
  transactions.type,
  transactions.amount,
  transactions.status,
  transactions.cryptocurrency,
  transactions.buy_request_id,
  transactions.withdraw_request_id,
  transactions.date,
  profiles.full_name,
  profiles.email,
  (select wallet_balances.available from public.wallet_balances
   where wallet_balances.user_id = transactions.user_id) as available,
  case when transactions.status <> 'complete' then private.money_gate(transactions.user_id, transactions.type::text) end
    as held_because,
  proposal.proposed_by,
  transactions.buy_request_id is not null or transactions.withdraw_request_id is not null
    or transactions.sell_request_id is not null as settled
from public.transactions
left join public.profiles on profiles.id = transactions.user_id
left join public.second_approvals as proposal
  on proposal.target_table = 'transactions' and proposal.target_id = transactions.id
  and proposal.confirmed_at is null;
comment on column public.transactions_with_user.settled is
  'The entry records an approved buy, sell or withdraw request: its status is final (set_transaction_status '
  'refuses it), so the list offers no change.';
