-- Platform part of the local stack's Realtime (devstack/src/realtime): the per-subscriber row-level
-- security check that Supabase Realtime keeps in its own `realtime` schema. Idempotent. Never applied
-- to a real Supabase database and never part of supabase/migrations.

create schema if not exists realtime;
comment on schema realtime is
  'Local stack Realtime: decides which subscriber may see which replicated change (as Supabase Realtime does).';
revoke all on schema realtime from public;
-- Only for the per-table visibility checks, which run as the subscriber (see realtime.apply_rls).
grant usage on schema realtime to anon, authenticated, service_role;

-- Earlier signature (without the transaction id), from before this file changed.
drop function if exists realtime.apply_rls(regclass, text, jsonb, jsonb, jsonb);

-- Per-table checks of an earlier shape (each row looked up on its own), from before this file changed.
do $$
declare
  old_check regprocedure;
begin
  for old_check in
    select p.oid::regprocedure from pg_catalog.pg_proc p
     where p.pronamespace = 'realtime'::regnamespace and p.proname like 'rows\_visible\_%'
  loop
    execute format('drop function %s', old_check);
  end loop;
end;
$$;

create or replace function realtime.wait_until_visible(committed_xid bigint)
returns void
language plpgsql
set search_path = ''
as $$
declare
  horizon bigint := pg_catalog.pg_snapshot_xmax(pg_catalog.pg_current_snapshot())::text::bigint;
  -- The 32-bit id from the replication stream, widened with the current epoch (or the one before it).
  full_xid bigint := ((horizon >> 32) << 32) | committed_xid;
begin
  -- The transaction may still count as running (at or past the horizon), so only an id far beyond
  -- the horizon belongs to the previous epoch.
  if full_xid > horizon + (1::bigint << 31) then
    full_xid := full_xid - (1::bigint << 32);
  end if;
  -- Each test takes a new snapshot; give up after a few seconds rather than hang deliveries.
  for attempt in 1..5000 loop
    exit when pg_catalog.pg_visible_in_snapshot(full_xid::text::xid8, pg_catalog.pg_current_snapshot());
    perform pg_catalog.pg_sleep(0.001);
  end loop;
end;
$$;

comment on function realtime.wait_until_visible(bigint) is
  'Logical decoding can hand over a commit a moment before the committing session has published it to '
  'other snapshots; waits (at most a few seconds) until the transaction''s effects are visible.';
revoke all on function realtime.wait_until_visible(bigint) from public;

create or replace function realtime.apply_rls(
  entity regclass,
  action text,
  new_values jsonb,
  old_values jsonb,
  checks jsonb,
  committed_xid bigint
)
returns table (check_index integer, record jsonb, old_record jsonb, columns jsonb)
language plpgsql
set search_path = ''
as $$
declare
  -- The row version that identifies the change: the new one, or the old one for a delete.
  lookup jsonb := case when action = 'DELETE' then old_values else new_values end;
  key_condition text;
  writable_columns text;
  row_exists boolean;
  typed_new jsonb;
  typed_old jsonb;
  check_item record;
  role_name text;
  selectable_by_role jsonb := '{}';
  filter_item jsonb;
  filter_column_type text;
  passes boolean;
  visible boolean;
  visible_checks jsonb := '[]';
  check_function text;
  recheck boolean;
begin
  select string_agg(format('t.%I = ($1 ->> %L)::%s', a.attname, a.attname, format_type(a.atttypid, a.atttypmod)), ' and ')
    into key_condition
    from pg_catalog.pg_index i
    join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
   where i.indrelid = entity and i.indisprimary;
  -- Without a primary key no row can be looked up, so nobody is shown anything.
  if key_condition is null or lookup is null then
    return;
  end if;
  perform realtime.wait_until_visible(committed_xid);

  if new_values is not null then
    execute format('select to_jsonb(r) from jsonb_populate_record(null::%s, $1) r', entity) into typed_new using new_values;
  end if;
  if old_values is not null then
    execute format('select to_jsonb(r) from jsonb_populate_record(null::%s, $1) r', entity) into typed_old using old_values;
  end if;

  execute format('select exists (select from %s t where %s)', entity, key_condition) into row_exists using lookup;

  -- The check as a subscriber runs in a small function per table: its query plan is cached for the
  -- session and reused for every subscriber of the same role, instead of being planned per subscriber.
  check_function := format('row_visible_%s', entity::oid);
  if not exists (
    select from pg_catalog.pg_proc p where p.proname = check_function and p.pronamespace = 'realtime'::regnamespace
  ) then
    -- Several Realtime servers may meet the table at once (a restart, tests): one creates, the others wait.
    perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('realtime.row_visible'));
  end if;
  if not exists (
    select from pg_catalog.pg_proc p where p.proname = check_function and p.pronamespace = 'realtime'::regnamespace
  ) then
    execute format(
      $create$create function realtime.%I(lookup jsonb) returns boolean language plpgsql stable set search_path = ''
        as $body$ begin return exists (select from %s t where %s); end $body$ $create$,
      check_function, entity, key_condition
    );
    execute format('comment on function realtime.%I(jsonb) is %L', check_function,
      format('Whether the caller may select the row of %s with this primary key (made by realtime.apply_rls).', entity));
    execute format('revoke all on function realtime.%I(jsonb) from public', check_function);
    execute format('grant execute on function realtime.%I(jsonb) to anon, authenticated, service_role', check_function);
  end if;

  -- The row may be deleted while the checks run (they see the table as it is now). Then the checks
  -- are made once more, on this change's own version of the row.
  for attempt in 1..2 loop
    visible_checks := '[]';
    recheck := false;
    begin
      if not row_exists then
        -- The row is gone (deleted, or deleted again since this change). Put this version back for the
        -- length of the check, so that the table's own policies decide who may see it; rolled back below.
        select string_agg(format('%I', a.attname), ', ' order by a.attnum)
          into writable_columns
          from pg_catalog.pg_attribute a
         where a.attrelid = entity and a.attnum > 0 and not a.attisdropped and a.attgenerated = '';
        perform pg_catalog.set_config('session_replication_role', 'replica', true);
        begin
          execute format(
            'insert into %s (%s) overriding system value select %s from jsonb_populate_record(null::%s, $1) r',
            entity, writable_columns, writable_columns, entity
          ) using lookup;
        exception
          -- The key is taken: the row committed after all (its session was slow to publish it) or a newer
          -- one has its key. The checks below then see that row.
          when unique_violation then
            null;
          -- The old row is incomplete (no replica identity full): nobody is shown this change.
          when others then
            raise exception using errcode = 'RTRLB';
        end;
      end if;

      for check_item in
        select c.value as spec, (c.ordinality - 1)::integer as position
          from jsonb_array_elements(checks) with ordinality c
      loop
        role_name := check_item.spec -> 'claims' ->> 'role';
        continue when role_name is null;
        -- Per role, once: whether the API may switch to it (granted to authenticator, as for PostgREST)
        -- and which columns it may select; an empty list means nothing is shown.
        if not selectable_by_role ? role_name then
          selectable_by_role := selectable_by_role || jsonb_build_object(role_name, (
            select coalesce(jsonb_agg(a.attname order by a.attnum), '[]')
              from pg_catalog.pg_attribute a
             where a.attrelid = entity and a.attnum > 0 and not a.attisdropped
               and exists (select from pg_catalog.pg_roles r where r.rolname = role_name)
               and pg_catalog.pg_has_role('authenticator', role_name, 'member')
               and pg_catalog.has_column_privilege(role_name, entity, a.attnum, 'SELECT')
               and pg_catalog.has_schema_privilege(role_name, (select c.relnamespace from pg_catalog.pg_class c where c.oid = entity), 'USAGE')
          ));
        end if;
        continue when jsonb_array_length(selectable_by_role -> role_name) = 0;

        -- Filters (`column=op.value`) only on columns this subscriber may read, compared as the column's type.
        passes := true;
        if jsonb_array_length(check_item.spec -> 'filters') > 0 then
          for filter_item in select f.value from jsonb_array_elements(check_item.spec -> 'filters') f loop
            select format_type(a.atttypid, a.atttypmod)
              into filter_column_type
              from pg_catalog.pg_attribute a
             where a.attrelid = entity and a.attname = filter_item ->> 'column' and a.attnum > 0 and not a.attisdropped;
            if filter_column_type is null or not selectable_by_role -> role_name ? (filter_item ->> 'column') then
              passes := false;
            elsif filter_item ->> 'op' = 'in' then
              execute format('select ($1)::%s = any (($2)::%s[])', filter_column_type, filter_column_type)
                into passes
                using lookup ->> (filter_item ->> 'column'), array(select jsonb_array_elements_text(filter_item -> 'values'));
            else
              execute format(
                'select ($1)::%s %s ($2)::%s',
                filter_column_type,
                case filter_item ->> 'op'
                  when 'eq' then '=' when 'neq' then '<>' when 'lt' then '<'
                  when 'lte' then '<=' when 'gt' then '>' when 'gte' then '>='
                end,
                filter_column_type
              )
                into passes
                using lookup ->> (filter_item ->> 'column'), filter_item -> 'values' ->> 0;
            end if;
            exit when passes is not true;
          end loop;
        end if;
        continue when passes is not true;

        -- The visibility check itself runs as the subscriber, with the subscriber's claims. Role and
        -- claims stay until the next subscriber's replace them; the rollback below ends them.
        perform pg_catalog.set_config('role', role_name, true),
          pg_catalog.set_config('request.jwt.claims', (check_item.spec -> 'claims')::text, true);
        execute format('select realtime.%I($1)', check_function) into visible using lookup;

        if visible then
          visible_checks := visible_checks || jsonb_build_object('position', check_item.position, 'columns', selectable_by_role -> role_name);
        end if;
      end loop;

      if row_exists then
        perform pg_catalog.set_config('role', 'none', true);
        execute format('select not exists (select from %s t where %s)', entity, key_condition) into recheck using lookup;
      end if;
      -- Undo the re-inserted row and the role switches in one go.
      raise exception using errcode = 'RTRLB';
    exception
      when sqlstate 'RTRLB' then null;
    end;
    exit when not recheck;
    row_exists := false;
  end loop;

  return query
    select (v ->> 'position')::integer,
           (select jsonb_object_agg(e.key, e.value) from jsonb_each(typed_new) e where v -> 'columns' ? e.key),
           (select jsonb_object_agg(e.key, e.value) from jsonb_each(typed_old) e where v -> 'columns' ? e.key),
           (select jsonb_agg(jsonb_build_object('name', a.attname, 'type', t.typname) order by a.attnum)
              from pg_catalog.pg_attribute a
              join pg_catalog.pg_type t on t.oid = a.atttypid
             where a.attrelid = entity and v -> 'columns' ? a.attname::text)
      from jsonb_array_elements(visible_checks) v;
end;
$$;

comment on function realtime.apply_rls(regclass, text, jsonb, jsonb, jsonb, bigint) is
  'For one replicated change (column values as text, keyed by name) and a list of subscriber checks '
  '({claims, filters}) of the committed transaction committed_xid, returns the checks whose subscriber may select that row under row-level security, '
  'each with only the columns that subscriber may select. One round trip per change.';

revoke all on function realtime.apply_rls(regclass, text, jsonb, jsonb, jsonb, bigint) from public;

create or replace function realtime.apply_rls_batch(changes jsonb, checks jsonb)
returns table (change_index integer, check_indexes integer[], record jsonb, old_record jsonb, columns jsonb)
language plpgsql
set search_path = ''
as $$
declare
  entity_name text;
  entity regclass;
  entity_changes jsonb;
  key_condition text;
  key_join text;
  key_record text;
  key_columns text[];
  visible_function text;
  typed_new jsonb;
  typed_old jsonb;
  existing integer[];
  still_existing integer[];
  all_columns integer;
  role_columns jsonb := '{}';
  role_column_types jsonb := '{}';
  filter_column text;
  filter_op text;
  filter_column_type text;
  filtered_out jsonb;
  newly_filtered_out jsonb;
  check_position integer;
  check_spec jsonb;
  role_name text;
  candidates jsonb;
  existing_keys jsonb;
  wanted integer[];
  visible_changes integer[];
  visible_change integer[] := '{}';
  visible_check integer[] := '{}';
  visible_role text[] := '{}';
  gone_change jsonb;
  gone_checks jsonb;
begin
  -- Each change's transaction must be visible before its row is looked up.
  perform realtime.wait_until_visible(x.committed_xid)
     from (select distinct (c.value ->> 'xid')::bigint as committed_xid from jsonb_array_elements(changes) c) x;

  for entity_name in select distinct c.value ->> 'entity' from jsonb_array_elements(changes) c loop
    entity := entity_name::regclass;
    select string_agg(format('t.%I = (c.value -> ''lookup'' ->> %L)::%s', a.attname, a.attname, format_type(a.atttypid, a.atttypmod)), ' and '),
           string_agg(format('t.%I = k.%I', a.attname, a.attname), ' and '),
           string_agg(format('%I %s', a.attname, format_type(a.atttypid, a.atttypmod)), ', '),
           array_agg(a.attname::text)
      into key_condition, key_join, key_record, key_columns
      from pg_catalog.pg_index i
      join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
     where i.indrelid = entity and i.indisprimary;
    -- Without a primary key no row can be looked up, so nobody is shown anything.
    continue when key_condition is null;
    -- Each change with its position in the batch, the row its filters and checks look at, and that
    -- row's primary key (all the subscriber checks need of it), in one pass.
    select coalesce(jsonb_agg(c.value || jsonb_build_object('index', c.ordinality - 1, 'lookup', l.lookup,
             'key', (select jsonb_object_agg(e.key, e.value) from jsonb_each(l.lookup) e where e.key = any (key_columns)))), '[]')
      into entity_changes
      from jsonb_array_elements(changes) with ordinality c,
           lateral (select case when c.value ->> 'action' = 'DELETE' then c.value -> 'old_record' else c.value -> 'record' end as lookup) l
     where c.value ->> 'entity' = entity_name;

    -- The check as a subscriber runs in a small function per table: its query plan is cached for the
    -- session and reused for every subscriber of the same role, instead of being planned per subscriber.
    visible_function := format('visible_rows_%s', entity::oid);
    if not exists (
      select from pg_catalog.pg_proc p where p.proname = visible_function and p.pronamespace = 'realtime'::regnamespace
    ) then
      -- Several Realtime servers may meet the table at once (a restart, tests): one creates, the others wait.
      perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('realtime.visible_rows'));
      if not exists (
        select from pg_catalog.pg_proc p where p.proname = visible_function and p.pronamespace = 'realtime'::regnamespace
      ) then
        execute format(
          $create$create function realtime.%I(keys jsonb, wanted integer[]) returns integer[] language plpgsql stable set search_path = ''
            as $body$ begin
              return (select coalesce(array_agg(k."realtime.index"), '{}')
                        from jsonb_to_recordset(keys) as k("realtime.index" integer, %s)
                        join %s t on %s
                       where k."realtime.index" = any (wanted));
            end $body$ $create$,
          visible_function, key_record, entity, key_join
        );
        execute format('comment on function realtime.%I(jsonb, integer[]) is %L', visible_function,
          format('Which of the wanted changes'' rows of %s (by primary key) the caller may select (made by realtime.apply_rls_batch).', entity));
        execute format('revoke all on function realtime.%I(jsonb, integer[]) from public', visible_function);
        execute format('grant execute on function realtime.%I(jsonb, integer[]) to anon, authenticated, service_role', visible_function);
      end if;
    end if;

    execute format(
      'select coalesce(jsonb_object_agg(c.value ->> ''index'', to_jsonb(jsonb_populate_record(null::%1$s, c.value -> ''record''))) filter (where jsonb_typeof(c.value -> ''record'') = ''object''), ''{}''),
              coalesce(jsonb_object_agg(c.value ->> ''index'', to_jsonb(jsonb_populate_record(null::%1$s, c.value -> ''old_record''))) filter (where jsonb_typeof(c.value -> ''old_record'') = ''object''), ''{}'')
         from jsonb_array_elements($1) c', entity)
      into typed_new, typed_old using entity_changes;
    execute format(
      'select coalesce(array_agg((c.value ->> ''index'')::integer), ''{}'') from jsonb_array_elements($1) c
        where jsonb_typeof(c.value -> ''lookup'') = ''object'' and exists (select from %s t where %s)', entity, key_condition)
      into existing using entity_changes;

    -- Per role, once: whether the API may switch to it (granted to authenticator, as for PostgREST)
    -- and which columns it may select; an empty list means nothing is shown.
    select count(*) into all_columns
      from pg_catalog.pg_attribute a where a.attrelid = entity and a.attnum > 0 and not a.attisdropped;
    role_columns := '{}';
    role_column_types := '{}';
    for role_name in
      select distinct l.value -> 'claims' ->> 'role'
        from jsonb_array_elements(checks) with ordinality l
       where (l.ordinality - 1)::integer in (
         select k.value::integer from jsonb_array_elements(entity_changes) c, jsonb_array_elements(c.value -> 'checks') k)
    loop
      continue when role_name is null;
      select jsonb_build_object(role_name, coalesce(jsonb_agg(a.attname order by a.attnum), '[]')),
             jsonb_build_object(role_name, coalesce(jsonb_agg(jsonb_build_object('name', a.attname, 'type', t.typname) order by a.attnum), '[]'))
        into check_spec, candidates
        from pg_catalog.pg_attribute a
        join pg_catalog.pg_type t on t.oid = a.atttypid
       where a.attrelid = entity and a.attnum > 0 and not a.attisdropped
         and exists (select from pg_catalog.pg_roles r where r.rolname = role_name)
         and pg_catalog.pg_has_role('authenticator', role_name, 'member')
         and pg_catalog.has_column_privilege(role_name, entity, a.attnum, 'SELECT')
         and pg_catalog.has_schema_privilege(role_name, (select c.relnamespace from pg_catalog.pg_class c where c.oid = entity), 'USAGE');
      role_columns := role_columns || check_spec;
      role_column_types := role_column_types || candidates;
    end loop;

    -- Filters (`column=op.value`) only on columns the subscriber may read, compared as the column's
    -- type: one query per column and operator for the whole batch. A pair (change, check) that a filter
    -- rules out, or whose filter names a column its role may not read, is left out.
    filtered_out := '{}';
    for filter_column, filter_op in
      select distinct f.value ->> 'column', f.value ->> 'op'
        from jsonb_array_elements(checks) with ordinality l, jsonb_array_elements(l.value -> 'filters') f
       where (l.ordinality - 1)::integer in (
         select k.value::integer from jsonb_array_elements(entity_changes) c, jsonb_array_elements(c.value -> 'checks') k)
    loop
      select format_type(a.atttypid, a.atttypmod)
        into filter_column_type
        from pg_catalog.pg_attribute a
       where a.attrelid = entity and a.attname = filter_column and a.attnum > 0 and not a.attisdropped;
      execute format(
        'with check_list as materialized (
           select (l.ordinality - 1)::integer as position, l.value as spec from jsonb_array_elements($5) with ordinality l
         )
         select coalesce(jsonb_object_agg(p.pair, true), ''{}'') from (
           select format(''%%s:%%s'', c.value ->> ''index'', k.value) as pair,
                  c.value -> ''lookup'' ->> $2 as value, f.value -> ''values'' as filter_values,
                  coalesce($4 -> (l.spec -> ''claims'' ->> ''role''), ''[]'') ? $2 as readable
             from jsonb_array_elements($1) c
             cross join jsonb_array_elements(c.value -> ''checks'') k
             join check_list l on l.position = k.value::integer
             cross join jsonb_array_elements(l.spec -> ''filters'') f
            where f.value ->> ''column'' = $2 and f.value ->> ''op'' = $3) p
          where not p.readable or %s is not true',
        case
          when filter_column_type is null then 'false'
          when filter_op = 'in' then format('(p.value)::%s = any (array(select jsonb_array_elements_text(p.filter_values))::%s[])', filter_column_type, filter_column_type)
          else format('(p.value)::%s %s (p.filter_values ->> 0)::%s', filter_column_type,
            case filter_op when 'eq' then '=' when 'neq' then '<>' when 'lt' then '<'
              when 'lte' then '<=' when 'gt' then '>' when 'gte' then '>=' end,
            filter_column_type)
        end)
        into newly_filtered_out using entity_changes, filter_column, filter_op, role_columns, checks;
      filtered_out := filtered_out || newly_filtered_out;
    end loop;

    -- Each subscriber once for the whole batch: its role and claims set once, then one query (with a
    -- cached plan) finds which of its candidate rows it may select under the table's policies.
    select coalesce(jsonb_agg(jsonb_build_object('realtime.index', c.value -> 'index') || (c.value -> 'key')), '[]')
      into existing_keys
      from jsonb_array_elements(entity_changes) c
     where (c.value ->> 'index')::integer = any (existing);
    for check_position, wanted in
      select k.value::integer, array_agg((c.value ->> 'index')::integer)
        from jsonb_array_elements(entity_changes) c, jsonb_array_elements(c.value -> 'checks') k
       where (c.value ->> 'index')::integer = any (existing)
         and format('%s:%s', c.value ->> 'index', k.value) not in (select jsonb_object_keys(filtered_out))
       group by k.value::integer
    loop
      role_name := checks -> check_position -> 'claims' ->> 'role';
      continue when role_name is null or jsonb_array_length(coalesce(role_columns -> role_name, '[]')) = 0;

      -- As the subscriber, with the subscriber's claims (both local to this transaction).
      perform pg_catalog.set_config('role', role_name, true),
        pg_catalog.set_config('request.jwt.claims', (checks -> check_position -> 'claims')::text, true);
      execute format('select realtime.%I($1, $2)', visible_function) into visible_changes using existing_keys, wanted;
      perform pg_catalog.set_config('role', 'none', true),
        pg_catalog.set_config('request.jwt.claims', '', true);

      visible_change := visible_change || visible_changes;
      visible_check := visible_check || array_fill(check_position, array[cardinality(visible_changes)]);
      visible_role := visible_role || array_fill(role_name, array[cardinality(visible_changes)]);
    end loop;

    -- A row deleted while the checks ran was judged by whoever looked after it went: its results are
    -- dropped, and it is checked again with realtime.apply_rls, which puts that version back for the check.
    execute format(
      'select coalesce(array_agg((c.value ->> ''index'')::integer), ''{}'') from jsonb_array_elements($1) c
        where (c.value ->> ''index'')::integer = any ($2) and exists (select from %s t where %s)', entity, key_condition)
      into still_existing using entity_changes, existing;

    return query
      select v.change_position,
             array_agg(v.check_position order by v.check_position),
             case when jsonb_array_length(role_columns -> v.role_name) = all_columns then typed_new -> v.change_position::text
               else (select jsonb_object_agg(e.key, e.value) from jsonb_each(typed_new -> v.change_position::text) e where role_columns -> v.role_name ? e.key) end,
             case when jsonb_array_length(role_columns -> v.role_name) = all_columns then typed_old -> v.change_position::text
               else (select jsonb_object_agg(e.key, e.value) from jsonb_each(typed_old -> v.change_position::text) e where role_columns -> v.role_name ? e.key) end,
             role_column_types -> v.role_name
        from unnest(visible_change, visible_check, visible_role) as v(change_position, check_position, role_name)
       where v.change_position = any (still_existing)
       group by v.change_position, v.role_name;
    visible_change := '{}';
    visible_check := '{}';
    visible_role := '{}';

    -- Rows that are gone (deleted, or deleted again since): the one-change check, as before.
    for gone_change in
      select c.value from jsonb_array_elements(entity_changes) c
       where not (c.value ->> 'index')::integer = any (still_existing) and jsonb_typeof(c.value -> 'lookup') = 'object'
    loop
      select coalesce(jsonb_agg(checks -> k.value::integer order by k.ordinality), '[]')
        into gone_checks
        from jsonb_array_elements(gone_change -> 'checks') with ordinality k;
      return query
        select (gone_change ->> 'index')::integer,
               array[(gone_change -> 'checks' ->> r.check_index)::integer],
               r.record, r.old_record, r.columns
          from realtime.apply_rls(entity, gone_change ->> 'action', nullif(gone_change -> 'record', 'null'),
                                  nullif(gone_change -> 'old_record', 'null'), gone_checks, (gone_change ->> 'xid')::bigint) r;
    end loop;
  end loop;
end;
$$;

comment on function realtime.apply_rls_batch(jsonb, jsonb) is
  'For a batch of replicated changes ([{entity, action, record, old_record, xid, checks}], values as text, '
  'checks indexing the batch''s list of subscriber checks [{claims, filters}]) returns, per change and role, '
  'the checks whose subscriber may select the row under row-level security, with only the columns that role '
  'may select. Filters are compared once per column and operator, each subscriber''s role is switched to once '
  'per batch and one cached query checks all its rows; a row gone by then is checked by realtime.apply_rls. '
  'One round trip per batch.';

revoke all on function realtime.apply_rls_batch(jsonb, jsonb) from public;

create or replace function realtime.filter_problem(schema_name text, table_name text, filters jsonb)
returns text
language plpgsql
stable
set search_path = ''
as $$
declare
  entity oid;
  filter_item jsonb;
  column_type text;
  filter_value text;
begin
  select c.oid into entity
    from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
   where n.nspname = schema_name and c.relname = table_name;
  if entity is null then
    return format('Error parsing `filter` params: unknown table %s.%s', schema_name, table_name);
  end if;
  for filter_item in select f.value from jsonb_array_elements(filters) f loop
    select format_type(a.atttypid, a.atttypmod) into column_type
      from pg_catalog.pg_attribute a
     where a.attrelid = entity and a.attname = filter_item ->> 'column' and a.attnum > 0 and not a.attisdropped;
    if column_type is null then
      return format('Error parsing `filter` params: unknown column %s', filter_item ->> 'column');
    end if;
    for filter_value in select jsonb_array_elements_text(filter_item -> 'values') loop
      begin
        execute format('select ($1)::%s', column_type) using filter_value;
      exception when others then
        return format('Error parsing `filter` params: %s is not a valid %s', filter_value, column_type);
      end;
    end loop;
  end loop;
  return null;
end;
$$;

comment on function realtime.filter_problem(text, text, jsonb) is
  'Why a subscription''s filters ([{column, op, values}]) cannot apply to schema_name.table_name (unknown '
  'table or column, a value that is not of the column''s type), or null: checked at join, so that one '
  'subscriber''s bad filter never fails the checks shared by every subscriber of a change.';
revoke all on function realtime.filter_problem(text, text, jsonb) from public;

-- Broadcast from the database, as Supabase Realtime's own `realtime` schema has it (supabase/realtime
-- priv/repo/tenant_schema/realtime: tables/messages.sql, functions/send.sql, broadcast_changes.sql,
-- topic.sql): messages written by `realtime.send` are streamed from their own publication and delivered
-- to the channels joined to their topic; row-level security on `realtime.messages` decides, when a
-- private channel joins, who may read which topic (devstack/src/realtime/authorization.ts).

do $$
begin
  if not exists (select from pg_roles where rolname = 'supabase_realtime_admin') then
    create role supabase_realtime_admin nologin noinherit noreplication;
  end if;
end
$$;
-- As on hosted projects, postgres may write policies on realtime.messages (it is a member of the owner).
grant supabase_realtime_admin to postgres;
grant create, usage on schema realtime to supabase_realtime_admin;

create table if not exists realtime.messages (
  topic text not null,
  extension text not null,
  payload jsonb,
  event text,
  private boolean default false,
  updated_at timestamp without time zone not null default now(),
  inserted_at timestamp without time zone not null default now(),
  id uuid not null default gen_random_uuid(),
  binary_payload bytea,
  constraint messages_payload_exclusive check (payload is null or binary_payload is null),
  constraint messages_pkey primary key (id, inserted_at)
) partition by range (inserted_at);
comment on table realtime.messages is
  'Broadcast messages (realtime.send) and, inside a rolled-back transaction, the probes of the join-time '
  'authorization: row-level security on it decides who may read which topic. Partitioned by day; the local '
  'Realtime makes the partitions from yesterday to three days ahead and drops those older than three days.';
alter table realtime.messages owner to supabase_realtime_admin;
alter table realtime.messages enable row level security;
create index if not exists messages_inserted_at_topic_index on only realtime.messages (inserted_at desc, topic)
  where extension = 'broadcast' and private is true;
grant insert, select, update on table realtime.messages to anon, authenticated, service_role;

create or replace function realtime.topic()
returns text
language sql
stable
as $$
  select nullif(pg_catalog.current_setting('realtime.topic', true), '');
$$;
comment on function realtime.topic() is
  'The topic a join (or a send) is about: set by Realtime before it checks the policies on realtime.messages.';
alter function realtime.topic() owner to supabase_realtime_admin;

create or replace function realtime.send(payload jsonb, event text, topic text, private boolean default true)
returns void
language plpgsql
as $$
declare
  message_id uuid := gen_random_uuid();
begin
  begin
    perform pg_catalog.set_config('realtime.topic', topic, true);
    insert into realtime.messages (id, payload, event, topic, private, extension)
    values (
      message_id,
      case when payload ? 'id' then payload else payload || jsonb_build_object('id', message_id) end,
      event, topic, private, 'broadcast'
    );
  exception when others then
    -- As hosted: a message that cannot be written (no partition for today, a policy) never fails the
    -- transaction that sent it.
    raise warning 'WarnSendingBroadcastMessage: %', sqlerrm;
  end;
end;
$$;
comment on function realtime.send(jsonb, text, text, boolean) is
  'Broadcasts payload (with an id added when it has none) as event on topic, to private channels by '
  'default; a failure is a warning, never the sender''s error.';
alter function realtime.send(jsonb, text, text, boolean) owner to supabase_realtime_admin;

create or replace function realtime.broadcast_changes(
  topic_name text,
  event_name text,
  operation text,
  table_name text,
  table_schema text,
  new record,
  old record,
  level text default 'ROW'
)
returns void
language plpgsql
as $$
begin
  if level = 'STATEMENT' then
    raise exception 'function can only be triggered for each row, not for each statement';
  end if;
  if operation not in ('INSERT', 'UPDATE', 'DELETE') then
    raise exception 'Unexpected operation type: %', operation;
  end if;
  perform realtime.send(
    jsonb_build_object('old_record', old, 'record', new, 'operation', operation, 'table', table_name,
      'schema', table_schema),
    event_name, topic_name
  );
end;
$$;
comment on function realtime.broadcast_changes(text, text, text, text, text, record, record, text) is
  'Broadcasts a row change ({old_record, record, operation, table, schema}, every column) on a private topic.';
alter function realtime.broadcast_changes(text, text, text, text, text, record, record, text)
  owner to supabase_realtime_admin;

create or replace function realtime.local_maintain_messages_partitions()
returns void
language plpgsql
set search_path = ''
as $$
declare
  day date;
  partition_name text;
begin
  -- As Supabase Realtime's janitor: partitions from yesterday to three days ahead ...
  for day in select generate_series(current_date - 1, current_date + 3, interval '1 day')::date loop
    partition_name := 'messages_' || pg_catalog.to_char(day, 'YYYY_MM_DD');
    if pg_catalog.to_regclass('realtime.' || partition_name) is null then
      execute format('create table realtime.%I partition of realtime.messages for values from (%L) to (%L)',
        partition_name, day, day + 1);
      execute format('alter table realtime.%I owner to supabase_realtime_admin', partition_name);
    end if;
  end loop;
  -- ... and messages older than three days dropped with their partition.
  for partition_name in
    select child.relname from pg_catalog.pg_inherits i
      join pg_catalog.pg_class child on child.oid = i.inhrelid
     where i.inhparent = 'realtime.messages'::regclass
       and child.relname ~ '^messages_\d{4}_\d{2}_\d{2}$'
       and pg_catalog.to_date(substr(child.relname, 10), 'YYYY_MM_DD') < (now() - interval '72 hours')::date
  loop
    execute format('drop table realtime.%I', partition_name);
  end loop;
end;
$$;
comment on function realtime.local_maintain_messages_partitions() is
  'Local stack only (Supabase Realtime''s janitor does it on hosted): makes the day partitions of '
  'realtime.messages from yesterday to three days ahead and drops those older than three days.';
revoke all on function realtime.local_maintain_messages_partitions() from public;
select realtime.local_maintain_messages_partitions();

-- Hosted Realtime streams realtime.messages from this publication (lib/realtime/tenants/replication_connection.ex).
do $$
begin
  if not exists (select from pg_publication where pubname = 'supabase_realtime_messages_publication') then
    create publication supabase_realtime_messages_publication for table realtime.messages;
  end if;
end
$$;
