-- The queue of entries awaiting seal is append-only too: nobody updates or empties it, and a row leaves it only
-- when the sealer has just put that very entry at the head of the chain (same row, status, moment and postings),
-- in the same transaction. Before, the migration owner (or any login with delete) could drop a queued entry and
-- the change it recorded would never reach the chain.

create function ledger.guard_unsealed_entries() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' and exists (
    select from ledger.head
    join ledger.entries on entries.seq = head.seq
    where entries.transaction_id is not distinct from old.transaction_id
      and entries.transaction_type is not distinct from old.transaction_type
      and entries.transaction_status = old.transaction_status
      and entries.recorded_at = old.recorded_at
      and (
        select array_agg(postings.account order by postings.position) = old.accounts
          and array_agg(postings.currency order by postings.position) = old.currencies
          and array_agg(postings.amount order by postings.position) = old.amounts
        from ledger.postings where postings.entry_seq = head.seq
      )
  ) then
    return old;
  end if;
  if tg_op = 'DELETE' then
    raise exception 'Entry % awaiting seal leaves the queue only once sealed at the head of the chain', old.id
      using errcode = '42501';
  end if;
  raise exception 'Append-only: % on %.% is refused', tg_op, tg_table_schema, tg_table_name
    using errcode = '42501';
end;
$$;
comment on function ledger.guard_unsealed_entries() is
  'Refuses every update and truncate of the queue of entries awaiting seal, and the deletion of a queued entry '
  'unless the entry at the head of the chain is that one (the sealer appends it, then deletes it): for every '
  'login, the migration owner included.';
revoke execute on function ledger.guard_unsealed_entries() from public;

create trigger refuse_rewrite_before_change before update or delete on ledger.unsealed_entries
  for each row execute function ledger.guard_unsealed_entries();
comment on trigger refuse_rewrite_before_change on ledger.unsealed_entries is
  'Queued entries are never changed, and leave the queue only into the chain.';
create trigger refuse_truncate before truncate on ledger.unsealed_entries
  for each statement execute function ledger.guard_unsealed_entries();
comment on trigger refuse_truncate on ledger.unsealed_entries is 'The queue is never emptied but by sealing.';
