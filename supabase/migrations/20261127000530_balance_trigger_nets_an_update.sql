-- An update of a transactions row changes the person's balance by the net difference in one step. It took
-- the old effect off and then put the new one on, so an admin setting a spent complete deposit to complete
-- again (no change at all) took the balance below zero in between and was refused by
-- profiles_balance_not_negative instead of succeeding; the ledger's property test found it.

create or replace function private.apply_ledger_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  net numeric;
begin
  -- Deltas (balance = balance + x) stay right under concurrent writers: each update re-reads the
  -- locked row, whereas recomputing a sum would read a snapshot taken before the lock was granted.
  if tg_op = 'UPDATE' and new.user_id = old.user_id then
    net := private.ledger_effect(new.type, new.amount, new.status)
      - private.ledger_effect(old.type, old.amount, old.status);
    update public.profiles set balance = balance + net where id = new.user_id and net <> 0;
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    update public.profiles
      set balance = balance - private.ledger_effect(old.type, old.amount, old.status)
      where id = old.user_id and private.ledger_effect(old.type, old.amount, old.status) <> 0;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    update public.profiles
      set balance = balance + private.ledger_effect(new.type, new.amount, new.status)
      where id = new.user_id and private.ledger_effect(new.type, new.amount, new.status) <> 0;
  end if;
  return null;
end;
$$;
comment on function private.apply_ledger_change() is
  'Keeps profiles.balance equal to complete deposits + sells - complete withdraws - buys; an update moves the '
  'balance by its net difference at once.';
