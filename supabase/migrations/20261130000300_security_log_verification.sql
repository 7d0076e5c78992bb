-- The security log's own verification in SQL, as the journal's (ledger.chain_differences): every person's chain
-- read once, each broken link named by person and entry; admins at aal2 run it per person or for everyone.
-- New entries are also told on admin:queues, so an admin's open view of a person's log stays live.

create function private.security_log_differences(p_user_id uuid)
returns setof ledger.difference
language sql
stable
set search_path = ''
as $$
  with chain as (
    select
      log.user_id,
      log.seq,
      log.prev_hash,
      log.hash,
      coalesce(lag(log.seq) over person, 0) as previous_seq,
      coalesce(lag(log.hash) over person, decode(repeat('00', 32), 'hex')) as previous_hash,
      ledger.entry_hash(private.canonical_security_event(log.user_id, log.seq, log.prev_hash, log.recorded_at,
        log.event, log.detail, log.ip, log.user_agent)) as computed_hash
    from public.security_log as log
    where p_user_id is null or log.user_id = p_user_id
    window person as (partition by log.user_id order by log.seq)
  ),
  last_entries as (
    select distinct on (log.user_id) log.user_id, log.seq, log.hash
    from public.security_log as log
    where p_user_id is null or log.user_id = p_user_id
    order by log.user_id, log.seq desc
  ),
  heads as (
    select heads.user_id, heads.seq, heads.hash
    from private.security_log_heads as heads
    where p_user_id is null or heads.user_id = p_user_id
  )
  select finding.*
  from chain
  cross join lateral (
    select 'chain: entries missing', chain.seq,
      'person ' || chain.user_id || ' entries ' || (chain.previous_seq + 1) || ' to ' || (chain.seq - 1),
      'entry ' || (chain.previous_seq + 1) || ' after entry ' || chain.previous_seq, 'entry ' || chain.seq
    where chain.seq <> chain.previous_seq + 1
    union all
    select 'chain: previous hash differs', chain.seq, 'person ' || chain.user_id || ' entry ' || chain.seq,
      encode(chain.previous_hash, 'hex'), encode(chain.prev_hash, 'hex')
    where chain.seq = chain.previous_seq + 1 and chain.prev_hash <> chain.previous_hash
    union all
    select 'chain: hash differs from contents', chain.seq, 'person ' || chain.user_id || ' entry ' || chain.seq,
      encode(chain.computed_hash, 'hex'), encode(chain.hash, 'hex')
    where chain.hash <> chain.computed_hash
  ) as finding ("check", entry, subject, expected, found)
  where chain.seq <> chain.previous_seq + 1 or chain.prev_hash <> chain.previous_hash
    or chain.hash <> chain.computed_hash
  union all
  select 'chain: head differs from last entry', coalesce(heads.seq, 0),
    'person ' || coalesce(heads.user_id, last_entries.user_id) || ' head',
    coalesce(last_entries.seq, 0) || ' ' || encode(coalesce(last_entries.hash, decode(repeat('00', 32), 'hex')), 'hex'),
    coalesce(heads.seq, 0) || ' ' || encode(coalesce(heads.hash, decode(repeat('00', 32), 'hex')), 'hex')
  from heads
  full join last_entries on last_entries.user_id = heads.user_id
  where (heads.seq, heads.hash) is distinct from (last_entries.seq, last_entries.hash)
    and not (last_entries.user_id is null and heads.seq = 0);
$$;
comment on function private.security_log_differences(uuid) is
  'Verifies the security log of one person (null: everyone) as ledger.chain_differences verifies the journal: '
  'each chain gapless from entry 1, each entry naming its predecessor''s hash (32 zero bytes for the first), '
  'each hash matching its canonical form, the person''s head at their last entry. One row per finding, naming '
  'the person and the entry.';
revoke execute on function private.security_log_differences(uuid) from public;

create function public.verify_security_log(person_id uuid default null)
returns table ("check" text, entry bigint, subject text, expected text, found text)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not (select private.is_admin()) then
    raise exception 'Only admins verify security logs' using errcode = '42501';
  end if;
  return query select * from private.security_log_differences(verify_security_log.person_id);
end;
$$;
comment on function public.verify_security_log(uuid) is
  'Admins at aal2: the findings of private.security_log_differences for one person (null: everyone); no rows '
  'when every entry is as it was written. Anyone else is refused.';
revoke execute on function public.verify_security_log(uuid) from public, anon, authenticated, service_role;
grant execute on function public.verify_security_log(uuid) to authenticated;

drop trigger broadcast_change_after_write on public.security_log;
create trigger broadcast_change_after_write after insert on public.security_log
  for each row execute function private.broadcast_row_change('account', 'admin:queues');
comment on trigger broadcast_change_after_write on public.security_log is
  'A new entry is told on the person''s account topic, so their open log shows it, and on admin:queues, so an '
  'admin''s open view of that person''s log does.';
