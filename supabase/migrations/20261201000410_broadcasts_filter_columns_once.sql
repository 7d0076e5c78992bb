-- A broadcast of a changed row kept only the columns signed-in people may select by rebuilding each row image key
-- by key (private.selectable_columns, twice for an update): four times per buy approval. The columns they may
-- not select are now read once per change, from the catalog, and taken out of each image; the payload is the same.

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
  -- a private table). A table they may select in full (most) needs no look at its columns.
  unselectable text[] := case
    when pg_catalog.has_table_privilege('authenticated', TG_RELID, 'SELECT') then '{}'::text[]
    else array(
      select columns.attname
      from pg_catalog.pg_attribute as columns
      where columns.attrelid = TG_RELID and columns.attnum > 0 and not columns.attisdropped
        and not pg_catalog.has_column_privilege('authenticated', TG_RELID, columns.attnum, 'SELECT')
    )
  end;
  owner_id text := coalesce(new_row, old_row) ->> 'user_id';
  payload jsonb := jsonb_build_object(
    'table', TG_TABLE_NAME,
    'schema', TG_TABLE_SCHEMA,
    'operation', TG_OP,
    'record', new_row - unselectable,
    'old_record', old_row - unselectable
  );
begin
  if owner_id is not null then
    perform realtime.send(payload, TG_TABLE_NAME, 'user:' || owner_id || ':' || person_topic, true);
  end if;
  if admin_topic is not null then
    perform realtime.send(payload, TG_TABLE_NAME, admin_topic, true);
  end if;
  return null;
end;
$$;
comment on function private.broadcast_row_change() is
  'After a row changes, broadcasts {table, schema, operation, record, old_record} (without the columns signed-in '
  'people may not select) as event <table> on the owner''s private topic user:<user_id>:<TG_ARGV[0]> and, when '
  'given, on TG_ARGV[1].';

drop function private.selectable_columns(regclass, jsonb);
