-- A broadcast of an inserted row no longer filters the absent old row through private.selectable_columns (nor a
-- deleted row's absent new one): half its calls. A recurring-buy run broadcasts three rows (its request to the
-- person and the admins, its notification), 2/3 of its time in the 100,000-schedule bench.
create or replace function private.broadcast_row_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  -- Trigger arguments: the person's topic (wallet or account), then optionally the admins' topic.
  person_topic text := TG_ARGV[0];
  admin_topic text := TG_ARGV[1];
  changed_row jsonb := case when TG_OP = 'DELETE' then to_jsonb(OLD) else to_jsonb(NEW) end;
  payload jsonb := jsonb_build_object(
    'table', TG_TABLE_NAME,
    'schema', TG_TABLE_SCHEMA,
    'operation', TG_OP,
    -- Only the side the operation has: an insert has no old row, a delete no new one.
    'record', case when TG_OP <> 'DELETE' then private.selectable_columns(TG_RELID, to_jsonb(NEW)) end,
    'old_record', case when TG_OP <> 'INSERT' then private.selectable_columns(TG_RELID, to_jsonb(OLD)) end
  );
begin
  if changed_row ->> 'user_id' is not null then
    perform realtime.send(payload, TG_TABLE_NAME, 'user:' || (changed_row ->> 'user_id') || ':' || person_topic, true);
  end if;
  if admin_topic is not null then
    perform realtime.send(payload, TG_TABLE_NAME, admin_topic, true);
  end if;
  return null;
end;
$$;
