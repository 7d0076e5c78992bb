-- Settings managed by admins: the status types they add to the fixed statuses, and the single row
-- of global transaction limits. Every admin change is recorded in the audit log.

create table public.status_types (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  created_at timestamptz not null default now(),
  constraint status_types_name_key unique (name),
  constraint status_types_name_not_blank check (btrim(name) <> ''),
  constraint status_types_name_length check (char_length(name) <= 50),
  constraint status_types_name_trimmed check (name = btrim(name)),
  constraint status_types_name_not_built_in check (lower(name) not in ('pending', 'complete', 'approved', 'rejected'))
);
comment on table public.status_types is
  'Statuses admins add to pending/complete (transactions) and pending/approved/rejected (withdraw requests).';
comment on column public.status_types.name is 'The status text as stored on transactions and withdraw requests.';
create index status_types_created_at_idx on public.status_types (created_at desc);
comment on index public.status_types_created_at_idx is 'The admin status type list, newest first.';
alter table public.status_types enable row level security;
revoke all on table public.status_types from anon, authenticated, service_role;
grant select, insert (name), delete on table public.status_types to authenticated;
grant select on table public.status_types to service_role;
create policy "Signed-in people can read the status types"
  on public.status_types for select to authenticated
  using (true);
comment on policy "Signed-in people can read the status types" on public.status_types is
  'Status types are labels every signed-in screen may show.';
create policy "Admins can create status types"
  on public.status_types for insert to authenticated
  with check ((select private.is_admin()));
comment on policy "Admins can create status types" on public.status_types is 'Only admins add statuses.';
create policy "Admins can delete status types"
  on public.status_types for delete to authenticated
  using ((select private.is_admin()));
comment on policy "Admins can delete status types" on public.status_types is
  'Only admins remove statuses; rows already carrying the status keep their text.';
create policy "Only aal2 sessions can create status types"
  on public.status_types as restrictive for insert to authenticated
  with check (((select auth.jwt()) ->> 'aal') = 'aal2');
comment on policy "Only aal2 sessions can create status types" on public.status_types is
  'Admin settings need a second factor.';
create policy "Only aal2 sessions can delete status types"
  on public.status_types as restrictive for delete to authenticated
  using (((select auth.jwt()) ->> 'aal') = 'aal2');
comment on policy "Only aal2 sessions can delete status types" on public.status_types is
  'Admin settings need a second factor.';
create function private.normalise_status_type() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  scripts text[];
  look_alike text;
begin
  if new.name is null or btrim(new.name) = '' then
    raise exception 'Status type name is required' using errcode = 'P0001';
  end if;
  -- Control characters, soft hyphen, zero-width and direction marks, fillers, variation selectors, BOM, tags.
  if new.name ~ '[\u0001-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFFB]'
    or new.name ~ '[\U000E0000-\U000E007F]'
  then
    raise exception 'Status type name cannot contain invisible or control characters' using errcode = 'P0001';
  end if;
  new.name := btrim(regexp_replace(normalize(new.name, nfkc), '\s+', ' ', 'g'));
  if new.name = '' then
    raise exception 'Status type name is required' using errcode = 'P0001';
  end if;
  scripts := private.name_scripts(new.name);
  if cardinality(scripts) > 1 then
    raise exception 'Status type name must use one alphabet, not a mix of % letters', array_to_string(scripts, ' and ')
      using errcode = 'P0001';
  end if;
  if private.status_type_skeleton(new.name) in (
    select private.status_type_skeleton(built_in) from unnest(array['pending', 'complete', 'approved', 'rejected']) as built_in
  ) then
    raise exception 'Status "%" is built in', new.name using errcode = 'P0001';
  end if;
  select name into look_alike from public.status_types
    where private.status_type_skeleton(name) = private.status_type_skeleton(new.name)
      and id is distinct from new.id;
  -- The very same name is left to the unique constraint (so "on conflict (name)" still works); the same
  -- name in other letter case is a plain duplicate too; a look-alike is named, so the admin sees which
  -- existing name it would be mistaken for.
  if found and look_alike = new.name then
    return new;
  end if;
  if found and lower(look_alike) = lower(new.name) then
    raise exception 'A status type with this name already exists' using errcode = '23505';
  end if;
  if found then
    raise exception 'A status type that looks the same already exists: "%"', look_alike using errcode = 'P0001';
  end if;
  return new;
end;
$$;
comment on function private.normalise_status_type() is
  'Normalises a status type name (NFKC, single spaces, trimmed) and refuses blank, invisible or control '
  'characters, mixed scripts, built-in names and look-alikes of existing names, with plain texts.';
create trigger normalise_status_type_before_write
  before insert or update on public.status_types
  for each row execute function private.normalise_status_type();
comment on trigger normalise_status_type_before_write on public.status_types is
  'Clear errors before the check constraints.';
create table public.transaction_limits (
  id boolean primary key default true,
  -- numeric(14,2) in range and scale, declared as checks so that 3 decimals are refused, not rounded.
  min_amount numeric not null default 0,
  max_amount numeric not null default 0,
  updated_at timestamptz not null default now(),
  security_hold_hours integer not null default 24,
  second_admin_above numeric not null default 1000,
  constraint transaction_limits_single_row check (id),
  constraint transaction_limits_not_negative check (min_amount >= 0 and max_amount >= 0),
  constraint transaction_limits_are_usd check (
    min_amount < 1e12 and max_amount < 1e12 and min_amount = round(min_amount, 2) and max_amount = round(max_amount, 2)
  ),
  constraint transaction_limits_min_below_max check (min_amount < max_amount or (min_amount = 0 and max_amount = 0)),
  constraint transaction_limits_security_hold_hours_range check (security_hold_hours between 0 and 720),
  constraint transaction_limits_second_admin_above_is_usd
    check (second_admin_above >= 0 and second_admin_above < 1000000000000
      and second_admin_above = round(second_admin_above, 2))
);
comment on table public.transaction_limits is
  'The single row of global limits for buy and withdraw amounts (USD). Both 0 means no limits are set.';
comment on column public.transaction_limits.second_admin_above is
  'USD: an approval or deposit completion moving more than this needs a second admin''s confirmation.';
comment on column public.transaction_limits.id is 'Always true: the primary key that keeps this table to one row.';
comment on column public.transaction_limits.min_amount is 'Smallest amount of a buy or withdraw request.';
comment on column public.transaction_limits.max_amount is 'Largest amount of a buy or withdraw request.';
comment on column public.transaction_limits.security_hold_hours is
  'Hours after a password, e-mail or two-factor change during which new withdrawals are refused (0: no hold).';
alter table public.transaction_limits enable row level security;
revoke all on table public.transaction_limits from anon, authenticated, service_role;
grant select, update (min_amount, max_amount) on table public.transaction_limits to authenticated;
grant select on table public.transaction_limits to service_role;
grant update (security_hold_hours) on table public.transaction_limits to authenticated;
create policy "Signed-in people can read the transaction limits"
  on public.transaction_limits for select to authenticated
  using (true);
comment on policy "Signed-in people can read the transaction limits" on public.transaction_limits is
  'Every signed-in screen with an amount field shows the limits.';
create policy "Admins can update the transaction limits"
  on public.transaction_limits for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));
comment on policy "Admins can update the transaction limits" on public.transaction_limits is 'Only admins set limits.';
create policy "Only aal2 sessions can update the transaction limits"
  on public.transaction_limits as restrictive for update to authenticated
  using (((select auth.jwt()) ->> 'aal') = 'aal2')
  with check (((select auth.jwt()) ->> 'aal') = 'aal2');
comment on policy "Only aal2 sessions can update the transaction limits" on public.transaction_limits is
  'Admin settings need a second factor.';
create function private.validate_transaction_limits() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.min_amount is null or new.max_amount is null
    or new.min_amount = 'NaN'::numeric or new.max_amount = 'NaN'::numeric then
    raise exception 'Amounts must be numbers' using errcode = 'P0001';
  end if;
  if new.min_amount <> round(new.min_amount, 2) or new.max_amount <> round(new.max_amount, 2) then
    raise exception 'Amounts must have at most 2 decimal places' using errcode = 'P0001';
  end if;
  if new.max_amount >= 1e12 then
    raise exception 'Amount is too large' using errcode = 'P0001';
  end if;
  if new.min_amount < 0 or new.max_amount < 0 then
    raise exception 'Amounts cannot be negative' using errcode = 'P0001';
  end if;
  if new.min_amount >= new.max_amount and not (new.min_amount = 0 and new.max_amount = 0) then
    raise exception 'Minimum amount must be less than maximum amount' using errcode = 'P0001';
  end if;
  new.updated_at := now();
  return new;
end;
$$;
comment on function private.validate_transaction_limits() is
  'Refuses negative or inverted limits with the app''s own texts before the check constraints.';
create trigger validate_transaction_limits_before_update
  before update on public.transaction_limits
  for each row execute function private.validate_transaction_limits();
comment on trigger validate_transaction_limits_before_update on public.transaction_limits is
  'Clear errors for bad limits.';
create function private.audit_settings_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_table_name = 'status_types' then
    perform private.write_audit(
      'status_type.' || lower(tg_op),
      'status_types',
      coalesce(new.id, old.id),
      jsonb_build_object('name', coalesce(new.name, old.name))
    );
  else
    perform private.write_audit(
      'transaction_limits.update',
      'transaction_limits',
      null,
      jsonb_build_object(
        'old', jsonb_build_object(
          'min_amount', old.min_amount, 'max_amount', old.max_amount, 'second_admin_above', old.second_admin_above
        ),
        'new', jsonb_build_object(
          'min_amount', new.min_amount, 'max_amount', new.max_amount, 'second_admin_above', new.second_admin_above
        )
      )
    );
  end if;
  return null;
end;
$$;
comment on function private.audit_settings_change() is 'Records status type and limit changes in audit_log.';
revoke execute on function private.audit_settings_change() from public;
create trigger audit_status_type_change
  after insert or delete on public.status_types
  for each row execute function private.audit_settings_change();
comment on trigger audit_status_type_change on public.status_types is 'Every status type change is audited.';
create trigger audit_transaction_limits_change
  after update on public.transaction_limits
  for each row when (
    old.security_hold_hours = new.security_hold_hours
    or old.min_amount is distinct from new.min_amount
    or old.max_amount is distinct from new.max_amount
  )
  execute function private.audit_settings_change();
comment on trigger audit_transaction_limits_change on public.transaction_limits is
  'Every limit change is audited (a change of the security hold alone has its own entry).';
-- Status type names a person can tell apart. A name is stored normalised (Unicode NFKC, runs of spaces
-- made one, trimmed); names with invisible or control characters, or with letters of more than one script
-- (a Cyrillic 'е' inside a Latin word), are refused; and two names may not look the same: the skeleton
-- below (lower case, look-alike letters of Cyrillic and Greek and look-alike digits and dashes mapped to
-- one Latin form) is unique. Each refusal says in plain words what is wrong.

create function private.status_type_skeleton(p_name text) returns text
language sql
immutable
set search_path = ''
as $$
  -- lower() folds only what the database's locale knows (Latin alone under C), so the Cyrillic and Greek
  -- capitals are mapped here: look-alikes of Latin letters to that letter, the others to their small form.
  select translate(
    lower(translate(translate(normalize(p_name, nfkc), 'АВЕКМНОРСТХІЈЅУӀΑΒΕΖΗΙΚΜΝΟΡΤΥΧ', 'abekmhopctxijsyiabezhikmnoptyx'), 'БГДЁЖЗИЙЛПФЦЧШЩЪЫЬЭЮЯЇЄҐΓΔΘΛΞΠΣΦΨΩ', 'бгдёжзийлпфцчшщъыьэюяїєґγδθλξπσφψω')),
    -- Small Cyrillic and Greek letters (as their capitals, so case never matters), digits and dashes that
    -- look like Latin letters or '-'.
    'аеёкморсухіїјѕԁһԛԝӏαγικνορτυχω01l‐‑‒–—−твнεηβζμ',
    'aeekmopcyxiijsdhqwiayiknoptyxwoii------tbhehbzm'
  );
$$;
comment on function private.status_type_skeleton(text) is
  'What a status type name looks like: lower case NFKC with look-alike letters, digits and dashes mapped to '
  'one form, so "Processing", "PROCESSING" and "Рrocessing" (Cyrillic Р) share one skeleton.';
create function private.name_scripts(p_name text) returns text[]
language sql
immutable
set search_path = ''
as $$
  select coalesce(array_agg(script order by script), '{}')
  from (
    values
      ('Latin', '[A-Za-z\u00C0-\u024F\u1E00-\u1EFF]'),
      ('Greek', '[\u0370-\u03FF\u1F00-\u1FFF]'),
      ('Cyrillic', '[\u0400-\u052F\u2DE0-\u2DFF\uA640-\uA69F]'),
      ('Armenian', '[\u0530-\u058F]'),
      ('Hebrew', '[\u0590-\u05FF]'),
      ('Arabic', '[\u0600-\u06FF\u0750-\u077F]'),
      ('Devanagari', '[\u0900-\u097F]'),
      ('Thai', '[\u0E00-\u0E7F]'),
      ('Hangul', '[\u1100-\u11FF\uAC00-\uD7AF]'),
      ('Japanese', '[\u3040-\u30FF]'),
      ('Han', '[\u3400-\u4DBF\u4E00-\u9FFF]')
  ) as scripts (script, letters)
  where p_name ~ letters;
$$;
comment on function private.name_scripts(text) is
  'The scripts (Latin, Cyrillic, Greek, …) whose letters a name uses, in alphabetical order.';
-- The race-proof backstop of the look-alike check (two admins at the same instant).
create unique index status_types_name_skeleton_key on public.status_types (private.status_type_skeleton(name));
comment on index public.status_types_name_skeleton_key is
  'No two status types look the same (unique skeleton, regardless of case and look-alike letters).';
grant update (second_admin_above) on table public.transaction_limits to authenticated;
