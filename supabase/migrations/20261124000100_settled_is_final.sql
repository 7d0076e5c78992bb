-- Settled is final. A ledger entry that settles a buy or withdraw request was written by that request's
-- own RPC and never changes afterwards (taking it out of complete would refund money while the request
-- stays approved: a double payout); an approved or rejected request never changes either. Deposits stay
-- changeable, but set_transaction_status already refuses a change that would make the available
-- balance negative ('Insufficient balance'). The triggers hold for every writer, the operator included.

create function private.keep_settled_entries_final() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if (old.buy_request_id is not null or old.withdraw_request_id is not null)
    and (
      (new.user_id, new.type, new.amount, new.status, new.cryptocurrency, new.date)
        is distinct from (old.user_id, old.type, old.amount, old.status, old.cryptocurrency, old.date)
      -- Only "on delete set null" may touch the links (the request's person was deleted).
      or (new.buy_request_id is not null and new.buy_request_id is distinct from old.buy_request_id)
      or (new.withdraw_request_id is not null and new.withdraw_request_id is distinct from old.withdraw_request_id)
    )
  then
    raise exception 'Transactions of approved requests are final' using errcode = 'P0001';
  end if;
  return new;
end;
$$;
comment on function private.keep_settled_entries_final() is
  'Refuses any change to a ledger entry that settles a buy or withdraw request (its links may only be cleared).';

create trigger keep_settled_entries_final_before_update
  before update on public.transactions
  for each row execute function private.keep_settled_entries_final();
comment on trigger keep_settled_entries_final_before_update on public.transactions is
  'Settled entries are final for every writer, whatever the grants.';

create function private.keep_decided_requests_final() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- decided_by may still be cleared: "on delete set null" when the deciding admin is deleted.
  if old.status::text in ('approved', 'rejected')
    and (
      (new.user_id, new.amount, new.status::text, new.date, new.decided_at)
        is distinct from (old.user_id, old.amount, old.status::text, old.date, old.decided_at)
      or (new.decided_by is not null and new.decided_by is distinct from old.decided_by)
    )
  then
    raise exception 'Request has already been decided' using errcode = 'P0001';
  end if;
  return new;
end;
$$;
comment on function private.keep_decided_requests_final() is
  'Refuses any change to an approved or rejected buy or withdraw request (its decider may only be cleared).';

create trigger keep_decided_requests_final_before_update
  before update on public.buy_requests
  for each row execute function private.keep_decided_requests_final();
comment on trigger keep_decided_requests_final_before_update on public.buy_requests is
  'Approved and rejected buy requests are final for every writer.';

create trigger keep_decided_requests_final_before_update
  before update on public.withdraw_requests
  for each row execute function private.keep_decided_requests_final();
comment on trigger keep_decided_requests_final_before_update on public.withdraw_requests is
  'Approved and rejected withdraw requests are final for every writer.';

create or replace function public.set_transaction_status(transaction_id uuid, new_status text) returns void
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

  change := private.ledger_effect(entry.type, entry.amount, wanted)
    - private.ledger_effect(entry.type, entry.amount, entry.status);
  if change < 0 then
    wallet := private.lock_wallet(entry.user_id);
    if wallet.available + change < 0 then
      raise exception 'Insufficient balance' using errcode = 'P0001';
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
comment on function public.set_transaction_status(uuid, text) is
  'Admin only. Sets pending, complete or a status type on an entry that settles no request (a deposit); '
  'refused with ''Insufficient balance'' when the change would make the available balance negative, and with '
  '''Transactions of approved requests are final'' for the entry of a buy or withdraw request.';
