-- Reconciliation from a verified checkpoint: a run that verifies the chain cleanly through a checkpoint's head
-- records that checkpoint as verified; a later run may start the chain's verification after the latest
-- verified checkpoint's head instead of genesis (the books are still recomputed from every posting). The
-- report says which entries the run verified and which it trusted, and on which checkpoint.

create table ledger.checkpoint_verifications (
  checkpoint_id bigint primary key references ledger.checkpoints (id),
  verified_at timestamptz not null default now(),
  verified_after_seq bigint not null,
  verified_through_seq bigint not null
);
comment on table ledger.checkpoint_verifications is
  'Checkpoints whose head a reconciliation reached with the chain intact (gapless, every hash over its '
  'predecessor and contents, the anchored entry unchanged): where a run from a verified checkpoint may start.';
comment on column ledger.checkpoint_verifications.checkpoint_id is 'The checkpoint verified.';
comment on column ledger.checkpoint_verifications.verified_at is 'When the reconciliation that verified it ran.';
comment on column ledger.checkpoint_verifications.verified_after_seq is
  'That run verified the entries after this seq (0: from genesis; else an earlier verified checkpoint''s head).';
comment on column ledger.checkpoint_verifications.verified_through_seq is 'That run verified up to this entry.';
alter table ledger.checkpoint_verifications enable row level security;
revoke all on table ledger.checkpoint_verifications from anon, authenticated, service_role;
grant select on table ledger.checkpoint_verifications to authenticated;
create policy "Admins can read the journal" on ledger.checkpoint_verifications for select to authenticated
  using ((select private.is_admin()));
comment on policy "Admins can read the journal" on ledger.checkpoint_verifications is
  'Admins read which checkpoints were verified; nobody writes them through the API.';
create policy "Only aal2 sessions can read the journal" on ledger.checkpoint_verifications as restrictive
  for select to authenticated using (((select auth.jwt()) ->> 'aal') = 'aal2');
comment on policy "Only aal2 sessions can read the journal" on ledger.checkpoint_verifications is
  'The checkpoints, like every admin table, need a second factor.';
create trigger refuse_rewrite_before_change before update or delete on ledger.checkpoint_verifications
  for each row execute function ledger.refuse_rewrite();
comment on trigger refuse_rewrite_before_change on ledger.checkpoint_verifications is
  'Append-only: a verification is never changed or removed.';
create trigger refuse_truncate before truncate on ledger.checkpoint_verifications
  for each statement execute function ledger.refuse_rewrite();
comment on trigger refuse_truncate on ledger.checkpoint_verifications is 'Verifications are never emptied.';

drop function public.ledger_reconciliation();
drop function ledger.reconcile();

create function ledger.reconcile(p_from_checkpoint boolean default false) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  head ledger.head;
  latest ledger.checkpoints;
  trusted ledger.checkpoints;
  trusted_verified_at timestamptz;
  after_seq bigint := 0;
  after_hash bytea := decode(repeat('00', 32), 'hex');
  findings jsonb;
  entry_count bigint;
  scope text;
begin
  select * into head from ledger.head;
  select * into latest from ledger.checkpoints order by id desc limit 1;
  if p_from_checkpoint then
    select checkpoints.* into trusted
    from ledger.checkpoints
    join ledger.checkpoint_verifications as verifications on verifications.checkpoint_id = checkpoints.id
    order by checkpoints.head_seq desc, checkpoints.id desc
    limit 1;
    if trusted.id is not null then
      select verified_at into trusted_verified_at from ledger.checkpoint_verifications
      where checkpoint_id = trusted.id;
      after_seq := trusted.head_seq;
      after_hash := trusted.head_hash;
    end if;
  end if;
  select count(*) into entry_count from ledger.entries where seq > after_seq;
  select coalesce(jsonb_agg(to_jsonb(finding) order by finding.entry nulls last, finding."check", finding.subject), '[]')
  into findings
  from (
    select * from ledger.chain_differences(after_seq, after_hash)
    union all
    select * from ledger.book_differences()
    union all
    -- Each checkpoint in the run's scope (the trusted one included) still anchors the entry it names: that
    -- entry's stored hash and the hash of its contents are both the checkpoint's head hash.
    select 'checkpoint: head no longer in the chain', checkpoints.head_seq, 'checkpoint ' || checkpoints.id,
      encode(checkpoints.head_hash, 'hex'),
      case when anchored.seq is null then 'no entry'
        when anchored.hash <> checkpoints.head_hash then 'stored ' || encode(anchored.hash, 'hex')
        else 'contents ' || encode(anchored.computed_hash, 'hex') end
    from ledger.checkpoints
    left join lateral (
      select entries.seq, entries.hash,
        ledger.entry_hash(ledger.canonical_entry(entries.seq, entries.prev_hash, entries.recorded_at,
          entries.transaction_id, entries.transaction_type, entries.transaction_status, entries.corrects,
          (select ledger.canonical_postings(array_agg(account order by position),
              array_agg(currency order by position), array_agg(amount order by position))
            from ledger.postings where postings.entry_seq = entries.seq))) as computed_hash
      from ledger.entries
      where entries.seq = checkpoints.head_seq
    ) as anchored on true
    where checkpoints.head_seq > 0 and checkpoints.head_seq >= after_seq
      and (anchored.seq is null or anchored.hash <> checkpoints.head_hash
        or anchored.computed_hash <> checkpoints.head_hash)
  ) as finding;

  -- The chain is intact through the head read above: the checkpoints it covers are verified from here on.
  if not jsonb_path_exists(findings, '$[*] ? (@."check" starts with "chain:" || @."check" starts with "checkpoint:")')
  then
    insert into ledger.checkpoint_verifications (checkpoint_id, verified_after_seq, verified_through_seq)
    select checkpoints.id, after_seq, head.seq
    from ledger.checkpoints
    where checkpoints.head_seq >= after_seq and checkpoints.head_seq <= head.seq
    on conflict (checkpoint_id) do nothing;
  end if;

  scope := case
    when trusted.id is not null then
      'The chain is verified after checkpoint #' || trusted.id || ' (verified ' || trusted_verified_at
      || '): entries ' || (after_seq + 1) || ' to ' || head.seq || '. Entries 1 to ' || after_seq
      || ' are out of scope of this run, trusted as that checkpoint''s head hash ' || encode(after_hash, 'hex')
      || ' anchors them; compare it with your anchored copy, or run from genesis.'
    when p_from_checkpoint then
      'No checkpoint is verified yet, so the chain is verified from genesis: entries 1 to ' || head.seq || '.'
    else 'The chain is verified from genesis: entries 1 to ' || head.seq || '.'
  end || ' Balances, holdings, entries and requests are checked against every posting.';
  return jsonb_build_object(
    'generated_at', now(),
    'head', jsonb_build_object('seq', head.seq, 'hash', encode(head.hash, 'hex')),
    'checkpoint', case when latest.id is not null then jsonb_build_object(
      'id', latest.id, 'head_seq', latest.head_seq, 'root', encode(latest.root_hash, 'hex')
    ) end,
    'entries_verified', entry_count,
    'verified_from', after_seq,
    'trusted_checkpoint', case when trusted.id is not null then jsonb_build_object(
      'id', trusted.id, 'head_seq', trusted.head_seq, 'head_hash', encode(trusted.head_hash, 'hex'),
      'verified_at', trusted_verified_at
    ) end,
    'scope', scope,
    'differences', findings
  );
end;
$$;
comment on function ledger.reconcile(boolean) is
  'The reconciliation report as JSON: the chain head, the latest checkpoint (id, head, root), the chain verified '
  'from genesis or (p_from_checkpoint) after the latest verified checkpoint''s head, which it names as trusted, '
  'and every difference (check, entry, subject, expected, found); honest books have none. A run whose chain is '
  'intact records the checkpoints it covered as verified.';

create function public.ledger_reconciliation(from_checkpoint boolean default false) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  return ledger.reconcile(ledger_reconciliation.from_checkpoint);
end;
$$;
comment on function public.ledger_reconciliation(boolean) is
  'Admin at aal2 only: the reconciliation report (ledger.reconcile), from genesis or from the latest verified '
  'checkpoint, for the admin page and the CLI.';

revoke execute on function ledger.reconcile(boolean) from public;
revoke execute on function public.ledger_reconciliation(boolean) from public, anon, service_role;
grant execute on function public.ledger_reconciliation(boolean) to authenticated;
