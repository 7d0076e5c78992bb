-- A broadcast asked whether signed-in people may select the whole table in a statement of its own (a CASE with
-- a subquery is not a plain expression to PL/pgSQL): three statements per buy approval. The question is now a
-- plain expression, and the catalog is read only for a table they may not select in full; the payload is the same.

create or replace function private.broadcast_row_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  -- Trigger arguments: the person's topic (wallet or account), then optionally the admins' topic.
  person_topic text := TG_ARGV[0];
  admin_topic text := TG_ARGV[1];
  -- Only the side the operation has: an insert has no old row, a delete no new one.
  new_row jsonb := case when TG_OP <> 'DELETE' then to_jsonb(NEW) end;
  old_row jsonb := case when TG_OP <> 'INSERT' then to_jsonb(OLD) end;
  -- What a broadcast never carries: the columns signed-in people may not select (encrypted_data, every column of
  -- a private table). A table they may select in full (most) needs no look at its columns: that test is a plain
  -- expression, which PL/pgSQL evaluates without starting a statement.
  unselectable text[] := '{}';
  owner_id text := coalesce(new_row, old_row) ->> 'user_id';
  payload jsonb;
begin
  if not pg_catalog.has_table_privilege('authenticated', TG_RELID, 'SELECT') then
    unselectable := array(
      select columns.attname
      from pg_catalog.pg_attribute as columns
      where columns.attrelid = TG_RELID and columns.attnum > 0 and not columns.attisdropped
        and not pg_catalog.has_column_privilege('authenticated', TG_RELID, columns.attnum, 'SELECT')
    );
  end if;
  payload := jsonb_build_object(
    'table', TG_TABLE_NAME,
    'schema', TG_TABLE_SCHEMA,
    'operation', TG_OP,
    'record', new_row - unselectable,
    'old_record', old_row - unselectable
  );
  if owner_id is not null then
    perform realtime.send(payload, TG_TABLE_NAME, 'user:' || owner_id || ':' || person_topic, true);
  end if;
  if admin_topic is not null then
    perform realtime.send(payload, TG_TABLE_NAME, admin_topic, true);
  end if;
  return null;
end;
$$;
