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

create or replace function private.normalise_status_type() returns trigger
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

-- The race-proof backstop of the look-alike check (two admins at the same instant).
create unique index status_types_name_skeleton_key on public.status_types (private.status_type_skeleton(name));
comment on index public.status_types_name_skeleton_key is
  'No two status types look the same (unique skeleton, regardless of case and look-alike letters).';
