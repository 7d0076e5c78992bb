-- Checkpoints and proof of liabilities. A checkpoint records the chain head, the total owed to people per
-- currency, and the root of a Merkle sum tree over every person's balances at that head: each leaf hashes a
-- person's id, a random salt drawn for them for this checkpoint alone, and their balances; each node hashes its
-- two children and carries their sums. The root is public; each person reads their own path to it and checks
-- that the total the custodian admits to includes them. docs/architecture.md, "Proof of liabilities".

create table ledger.checkpoints (
  id bigint generated always as identity primary key,
  created_at timestamptz not null default now(),
  created_by uuid,
  head_seq bigint not null,
  head_hash bytea not null,
  currencies text[] not null,
  totals numeric[] not null,
  people integer not null,
  root_hash bytea not null,
  constraint checkpoints_totals_per_currency check (cardinality(currencies) = cardinality(totals))
);
comment on table ledger.checkpoints is
  'A signed-off state of the books: the chain head, what the house owes people per currency, and the root of the '
  'Merkle sum tree over every person''s balances at that head.';
comment on column ledger.checkpoints.created_by is 'The admin who asked for it; null for the daily schedule.';
comment on column ledger.checkpoints.head_seq is 'The last entry the checkpoint covers.';
comment on column ledger.checkpoints.head_hash is 'That entry''s hash: anchors the chain up to it.';
comment on column ledger.checkpoints.currencies is 'The currencies of the tree''s sums, in byte order (USD first).';
comment on column ledger.checkpoints.totals is 'Owed to people per currency: the root''s sums.';
comment on column ledger.checkpoints.people is 'Leaves in the tree: every person with an account in the journal.';
comment on column ledger.checkpoints.root_hash is 'The root of the Merkle sum tree.';

create table ledger.checkpoint_leaves (
  checkpoint_id bigint not null references ledger.checkpoints (id) deferrable initially deferred,
  position integer not null,
  person_id uuid not null,
  salt bytea not null,
  balances numeric[] not null,
  primary key (checkpoint_id, position)
);
comment on table ledger.checkpoint_leaves is 'Who each leaf of a checkpoint''s tree is, with the salt drawn for them.';
comment on column ledger.checkpoint_leaves.position is 'The leaf''s position (leaves are ordered by salt: at random).';
comment on column ledger.checkpoint_leaves.person_id is 'The person (their accounts'' owner_id).';
comment on column ledger.checkpoint_leaves.salt is '32 random bytes for this person in this checkpoint only.';
comment on column ledger.checkpoint_leaves.balances is 'What the house owes them, per checkpoint currency.';
create index checkpoint_leaves_person_idx on ledger.checkpoint_leaves (person_id, checkpoint_id);
comment on index ledger.checkpoint_leaves_person_idx is 'A person''s leaf in a checkpoint (their proof).';

create table ledger.checkpoint_nodes (
  checkpoint_id bigint not null references ledger.checkpoints (id) deferrable initially deferred,
  level smallint not null,
  position integer not null,
  hash bytea not null,
  sums numeric[] not null,
  primary key (checkpoint_id, level, position)
);
comment on table ledger.checkpoint_nodes is
  'Every node of a checkpoint''s tree, leaves at level 0; a lone last node is carried up a level unchanged.';
comment on column ledger.checkpoint_nodes.hash is 'The leaf''s or node''s hash.';
comment on column ledger.checkpoint_nodes.sums is 'The sums of the balances below, per checkpoint currency.';

do $$
declare
  journal_table text;
begin
  foreach journal_table in array array['checkpoints', 'checkpoint_leaves', 'checkpoint_nodes'] loop
    execute format('alter table ledger.%I enable row level security', journal_table);
    execute format('revoke all on table ledger.%I from anon, authenticated, service_role', journal_table);
    execute format('grant select on table ledger.%I to authenticated', journal_table);
    execute format(
      'create policy "Admins can read the journal" on ledger.%I for select to authenticated '
      'using ((select private.is_admin()))',
      journal_table
    );
    execute format(
      'comment on policy "Admins can read the journal" on ledger.%I is %L',
      journal_table,
      'Admins read the checkpoints; people read their own proof and the public root through functions.'
    );
    execute format(
      'create policy "Only aal2 sessions can read the journal" on ledger.%I as restrictive for select '
      'to authenticated using (((select auth.jwt()) ->> ''aal'') = ''aal2'')',
      journal_table
    );
    execute format(
      'comment on policy "Only aal2 sessions can read the journal" on ledger.%I is %L',
      journal_table,
      'The checkpoints, like every admin table, need a second factor.'
    );
    execute format(
      'create trigger refuse_rewrite_before_change before update or delete on ledger.%I '
      'for each row execute function ledger.refuse_rewrite()',
      journal_table
    );
    execute format(
      'comment on trigger refuse_rewrite_before_change on ledger.%I is %L',
      journal_table,
      'Append-only: a checkpoint is never changed or removed.'
    );
    execute format(
      'create trigger refuse_truncate before truncate on ledger.%I '
      'for each statement execute function ledger.refuse_rewrite()',
      journal_table
    );
    execute format(
      'comment on trigger refuse_truncate on ledger.%I is %L',
      journal_table,
      'Checkpoints are never emptied.'
    );
  end loop;
end;
$$;

create function ledger.canonical_amounts(p_amounts numeric[]) returns text
language sql
immutable
set search_path = ''
as $$
  select '[' || coalesce(string_agg(to_json(trim_scale(amount)::text)::text, ',' order by position), '') || ']'
  from unnest(p_amounts) with ordinality as amounts (amount, position);
$$;
comment on function ledger.canonical_amounts(numeric[]) is 'Amounts as a JSON array of decimal strings.';

create function ledger.create_checkpoint(p_created_by uuid) returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  head ledger.head;
  new_checkpoint bigint;
  checkpoint_currencies text[];
  level_size integer;
  tree_level smallint := 0;
  root ledger.checkpoint_nodes;
begin
  -- Entries up to the head read here are all committed (the head moves in the writer's transaction), so
  -- the checkpoint needs no lock and writers go on meanwhile.
  select * into head from ledger.head;
  select coalesce(array_agg(currency order by currency collate "C"), '{}') into checkpoint_currencies
  from (select distinct currency from ledger.accounts where kind = 'person') as held;

  -- The checkpoint row is written last, complete (nothing in the journal is ever updated): its leaves and
  -- nodes name its id first, under foreign keys checked at commit.
  new_checkpoint := nextval(pg_catalog.pg_get_serial_sequence('ledger.checkpoints', 'id'));

  insert into ledger.checkpoint_leaves (checkpoint_id, position, person_id, salt, balances)
  select new_checkpoint, (row_number() over (order by people.salt) - 1)::integer, people.owner_id, people.salt,
    people.balances
  from (
    select persons.owner_id, extensions.gen_random_bytes(32) as salt,
      array_agg(trim_scale(coalesce(owed.balance, 0)) order by currencies.position) as balances
    from (select distinct owner_id from ledger.accounts where kind = 'person') as persons
    cross join unnest(checkpoint_currencies) with ordinality as currencies (currency, position)
    left join (
      select accounts.owner_id, accounts.currency, -sum(postings.amount) as balance
      from ledger.accounts
      join ledger.postings on postings.account = accounts.name
      where accounts.kind = 'person' and postings.entry_seq <= head.seq
      group by accounts.owner_id, accounts.currency
    ) as owed on owed.owner_id = persons.owner_id and owed.currency = currencies.currency
    group by persons.owner_id
  ) as people;

  -- Leaf: SHA-256 of ["coinvault-liability-leaf-v1", checkpoint id, person id, salt hex, [balances]]; node:
  -- of ["coinvault-liability-node-v1", left hex, right hex, [sums]]. Written out in the statements rather than
  -- as helper functions: a SQL function with its own search_path is never inlined, and calls per node made
  -- 100,000 people take minutes. Amounts are kept trimmed (trim_scale), so to_json(amounts::text[]) is their canonical text;
  -- tests/db/ledger.test.ts verifies the trees with the documented hashes.
  insert into ledger.checkpoint_nodes (checkpoint_id, level, position, hash, sums)
  select new_checkpoint, 0, position,
    sha256(convert_to('["coinvault-liability-leaf-v1",' || new_checkpoint || ',"' || person_id || '","'
      || encode(salt, 'hex') || '",' || to_json(balances::text[])::text || ']', 'UTF8')),
    balances
  from ledger.checkpoint_leaves
  where checkpoint_leaves.checkpoint_id = new_checkpoint;
  get diagnostics level_size = row_count;

  while level_size > 1 loop
    insert into ledger.checkpoint_nodes (checkpoint_id, level, position, hash, sums)
    select new_checkpoint, tree_level + 1, pairs.position / 2,
      case when pairs.right_hash is null then pairs.left_hash
        else sha256(convert_to('["coinvault-liability-node-v1","' || encode(pairs.left_hash, 'hex') || '","'
          || encode(pairs.right_hash, 'hex') || '",' || to_json(pairs.sums::text[])::text || ']', 'UTF8')) end,
      pairs.sums
    from (
      select left_node.position, left_node.hash as left_hash, right_node.hash as right_hash,
        case when right_node.position is null then left_node.sums
          else array(select trim_scale(left_sum + right_sum)
            from unnest(left_node.sums, right_node.sums) with ordinality as sums (left_sum, right_sum, position)
            order by sums.position) end as sums
      from ledger.checkpoint_nodes as left_node
      left join ledger.checkpoint_nodes as right_node
        on right_node.checkpoint_id = left_node.checkpoint_id and right_node.level = left_node.level
          and right_node.position = left_node.position + 1
      where left_node.checkpoint_id = new_checkpoint and left_node.level = tree_level
        and left_node.position % 2 = 0
    ) as pairs;
    get diagnostics level_size = row_count;
    tree_level := tree_level + 1;
  end loop;

  select * into root from ledger.checkpoint_nodes
  where checkpoint_nodes.checkpoint_id = new_checkpoint and level = tree_level;
  insert into ledger.checkpoints
    (id, created_by, head_seq, head_hash, currencies, totals, people, root_hash)
  overriding system value
  values (
    new_checkpoint, p_created_by, head.seq, head.hash, checkpoint_currencies,
    coalesce(root.sums, array_fill(0::numeric, array[cardinality(checkpoint_currencies)])),
    (select count(*) from ledger.checkpoint_leaves
      where checkpoint_leaves.checkpoint_id = new_checkpoint),
    coalesce(root.hash, decode(repeat('00', 32), 'hex'))
  );
  return new_checkpoint;
end;
$$;
comment on function ledger.create_checkpoint(uuid) is
  'Builds a checkpoint at the current head: salts and leaves for every person with an account, the Merkle sum tree '
  'level by level, the root and totals. Answers its id.';

create function ledger.checkpoint_summary(p_checkpoint ledger.checkpoints) returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object(
    'id', p_checkpoint.id,
    'created_at', p_checkpoint.created_at,
    'head_seq', p_checkpoint.head_seq,
    'head_hash', encode(p_checkpoint.head_hash, 'hex'),
    'currencies', to_jsonb(p_checkpoint.currencies),
    'totals', (ledger.canonical_amounts(p_checkpoint.totals))::jsonb,
    'people', p_checkpoint.people,
    'root', encode(p_checkpoint.root_hash, 'hex')
  );
$$;
comment on function ledger.checkpoint_summary(ledger.checkpoints) is
  'What is published of a checkpoint: id, time, chain head, currencies, totals (decimal strings), people, root.';

create function ledger.liability_proof(p_person_id uuid, p_checkpoint_id bigint) returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'version', 'coinvault-liability-proof-v1',
    'checkpoint', ledger.checkpoint_summary(checkpoints),
    'leaf', jsonb_build_object(
      'person', leaves.person_id,
      'salt', encode(leaves.salt, 'hex'),
      'balances', (ledger.canonical_amounts(leaves.balances))::jsonb,
      'position', leaves.position
    ),
    'path', coalesce((
      select jsonb_agg(
        jsonb_build_object(
          'side', case when sibling.position < (leaves.position >> sibling.level) then 'left' else 'right' end,
          'hash', encode(sibling.hash, 'hex'),
          'sums', (ledger.canonical_amounts(sibling.sums))::jsonb
        ) order by sibling.level
      )
      -- One index probe per level: (checkpoint, level, position of the sibling).
      from generate_series(0, 31) as levels (level)
      join ledger.checkpoint_nodes as sibling
        on sibling.checkpoint_id = checkpoints.id and sibling.level = levels.level
          and sibling.position = ((leaves.position >> levels.level) # 1)
    ), '[]'::jsonb)
  )
  from ledger.checkpoints
  join ledger.checkpoint_leaves as leaves on leaves.checkpoint_id = checkpoints.id
  where checkpoints.id = p_checkpoint_id and leaves.person_id = p_person_id;
$$;
comment on function ledger.liability_proof(uuid, bigint) is
  'A person''s inclusion proof in a checkpoint: the checkpoint''s published summary, their leaf (id, salt, '
  'balances) and the sibling of each level up to the root (which side, its hash and sums). Null when they have no leaf.';

create function ledger.reconcile() returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  head ledger.head;
  latest ledger.checkpoints;
  findings jsonb;
  entry_count bigint;
begin
  select * into head from ledger.head;
  select * into latest from ledger.checkpoints order by id desc limit 1;
  select count(*) into entry_count from ledger.entries;
  select coalesce(jsonb_agg(to_jsonb(finding) order by finding.entry nulls last, finding."check", finding.subject), '[]')
  into findings
  from (
    select * from ledger.chain_differences(0, decode(repeat('00', 32), 'hex'))
    union all
    select * from ledger.book_differences()
    union all
    select 'checkpoint: head no longer in the chain', latest.head_seq, 'checkpoint ' || latest.id,
      encode(latest.head_hash, 'hex'), coalesce(encode(entries.hash, 'hex'), 'no entry')
    from (select 1) as always
    left join ledger.entries on entries.seq = latest.head_seq
    where latest.id is not null and latest.head_seq > 0 and entries.hash is distinct from latest.head_hash
  ) as finding;
  return jsonb_build_object(
    'generated_at', now(),
    'head', jsonb_build_object('seq', head.seq, 'hash', encode(head.hash, 'hex')),
    'checkpoint', case when latest.id is not null then jsonb_build_object(
      'id', latest.id, 'head_seq', latest.head_seq, 'root', encode(latest.root_hash, 'hex')
    ) end,
    'entries_verified', entry_count,
    'verified_from', 0,
    'differences', findings
  );
end;
$$;

comment on function ledger.reconcile() is
  'The reconciliation report as JSON: the chain head, the latest checkpoint (id, head, root), how many entries were '
  'verified and from where, and every difference (check, entry, subject, expected, found); honest books have none.';

create function public.ledger_reconciliation() returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  return ledger.reconcile();
end;
$$;
comment on function public.ledger_reconciliation() is
  'Admin at aal2 only: the reconciliation report (ledger.reconcile), for the admin page and the CLI.';

create function public.create_ledger_checkpoint() returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  created_id bigint;
  created ledger.checkpoints;
  by_schedule boolean := coalesce((select auth.jwt()) ->> 'role', '') = 'service_role';
begin
  if not by_schedule then
    perform private.assert_admin();
  end if;
  created_id := ledger.create_checkpoint(case when by_schedule then null else (select auth.uid()) end);
  select * into created from ledger.checkpoints where id = created_id;
  perform private.write_audit('ledger.checkpoint', 'checkpoints', null, ledger.checkpoint_summary(created));
  return ledger.checkpoint_summary(created);
end;
$$;
comment on function public.create_ledger_checkpoint() is
  'An admin at aal2 (on demand) or the service role (the daily schedule): a checkpoint at the current head; '
  'answers its published summary.';

create function public.latest_ledger_checkpoint() returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select ledger.checkpoint_summary(checkpoints) from ledger.checkpoints order by id desc limit 1;
$$;
comment on function public.latest_ledger_checkpoint() is
  'Anyone: the latest checkpoint''s published summary (root, totals, chain head); null before the first.';

create function public.my_liability_proof() returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  -- A person with a factor reads their money at aal2 only, as their transactions.
  if coalesce((select auth.jwt()) ->> 'aal', '') <> 'aal2' and (select private.has_verified_factor()) then
    return null;
  end if;
  return ledger.liability_proof(
    (select auth.uid()),
    (select id from ledger.checkpoints order by id desc limit 1)
  );
end;
$$;
comment on function public.my_liability_proof() is
  'The caller''s own inclusion proof in the latest checkpoint (ledger.liability_proof); null without a leaf.';

revoke execute on all functions in schema ledger from public;
revoke execute on function public.create_ledger_checkpoint() from public, anon;
grant execute on function public.create_ledger_checkpoint() to authenticated, service_role;
revoke execute on function public.latest_ledger_checkpoint() from public;
grant execute on function public.latest_ledger_checkpoint() to anon, authenticated, service_role;
revoke execute on function public.ledger_reconciliation() from public, anon, service_role;
grant execute on function public.ledger_reconciliation() to authenticated;
revoke execute on function public.my_liability_proof() from public, anon, service_role;
grant execute on function public.my_liability_proof() to authenticated;
