import type pg from 'pg';

/**
 * A database's definition as the catalog holds it: one entry per object (`function public.f(uuid)`,
 * `column public.t.c`, `policy "…" on public.t`, …), each a set of named properties (body, owner, acl,
 * comment, …). Two databases built differently are the same schema when their catalogs are equal.
 */
export type Catalog = Map<string, Record<string, string>>;

/** Schemas Postgres or the migration tool own; everything else (public, private, auth, …) is compared. */
const projectSchemas = `n.nspname not in ('pg_catalog', 'information_schema', 'supabase_migrations')
  and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'`;

// An ACL's entries in a fixed order: the order grants were made in is not part of the definition.
const sortedAcl = (column: string) =>
  `coalesce((select string_agg(item::text, ',' order by item::text) from unnest(${column}) as item), '')`;

/** Each query answers rows of (object, property, value); a null value is left out. */
const queries: string[] = [
  `select 'schema ' || n.nspname, p.property, p.value
   from pg_namespace n
   cross join lateral (values
     ('owner', pg_get_userbyid(n.nspowner)::text),
     ('acl', ${sortedAcl('n.nspacl')}),
     ('comment', obj_description(n.oid, 'pg_namespace'))
   ) as p (property, value)
   where ${projectSchemas}`,

  `select 'extension ' || e.extname, p.property, p.value
   from pg_extension e
   cross join lateral (values ('schema', e.extnamespace::regnamespace::text), ('version', e.extversion))
     as p (property, value)`,

  `select 'type ' || format('%I.%I', n.nspname, t.typname), p.property, p.value
   from pg_type t
   join pg_namespace n on n.oid = t.typnamespace
   cross join lateral (values
     ('kind', t.typtype::text),
     ('enum values', (select string_agg(e.enumlabel, ', ' order by e.enumsortorder) from pg_enum e
       where e.enumtypid = t.oid)),
     ('fields', (select string_agg(format('%I %s', a.attname, format_type(a.atttypid, a.atttypmod)), ', '
       order by a.attnum) from pg_attribute a where a.attrelid = t.typrelid and a.attnum > 0 and not a.attisdropped)),
     ('domain of', case when t.typtype = 'd' then format_type(t.typbasetype, t.typtypmod) end),
     ('owner', pg_get_userbyid(t.typowner)::text),
     ('acl', ${sortedAcl('t.typacl')}),
     ('comment', obj_description(t.oid, 'pg_type'))
   ) as p (property, value)
   where ${projectSchemas}
     and (t.typtype in ('e', 'd') or (t.typtype = 'c'
       and (select c.relkind from pg_class c where c.oid = t.typrelid) = 'c'))`,

  `select case c.relkind when 'r' then 'table ' when 'p' then 'table ' when 'v' then 'view '
       when 'm' then 'materialized view ' when 'S' then 'sequence ' when 'f' then 'foreign table ' end
       || format('%I.%I', n.nspname, c.relname), p.property, p.value
   from pg_class c
   join pg_namespace n on n.oid = c.relnamespace
   cross join lateral (values
     ('owner', pg_get_userbyid(c.relowner)::text),
     ('acl', ${sortedAcl('c.relacl')}),
     ('comment', obj_description(c.oid, 'pg_class')),
     ('row level security', c.relrowsecurity::text),
     ('forced row level security', c.relforcerowsecurity::text),
     ('replica identity', c.relreplident::text),
     ('options', array_to_string(c.reloptions, ', ')),
     ('definition', case when c.relkind in ('v', 'm') then pg_get_viewdef(c.oid) end)
   ) as p (property, value)
   where ${projectSchemas} and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')`,

  `select 'column ' || format('%I.%I.%I', n.nspname, c.relname, a.attname), p.property, p.value
   from pg_attribute a
   join pg_class c on c.oid = a.attrelid
   join pg_namespace n on n.oid = c.relnamespace
   left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
   cross join lateral (values
     -- Its place among the live columns: what select * and an insert without a column list go by.
     ('position', (select count(*) from pg_attribute b where b.attrelid = a.attrelid and b.attnum > 0
       and b.attnum <= a.attnum and not b.attisdropped)::text),
     ('type', format_type(a.atttypid, a.atttypmod)),
     ('default', pg_get_expr(d.adbin, d.adrelid)),
     ('not null', a.attnotnull::text),
     ('identity', nullif(a.attidentity, '')::text),
     ('generated', nullif(a.attgenerated, '')::text),
     ('collation', case when a.attcollation <> 0 then a.attcollation::regcollation::text end),
     ('acl', ${sortedAcl('a.attacl')}),
     ('comment', col_description(c.oid, a.attnum))
   ) as p (property, value)
   where ${projectSchemas} and c.relkind in ('r', 'p', 'v', 'm', 'f') and a.attnum > 0 and not a.attisdropped`,

  `select 'constraint ' || format('%I on %I.%I', con.conname, n.nspname, c.relname), p.property, p.value
   from pg_constraint con
   join pg_class c on c.oid = con.conrelid
   join pg_namespace n on n.oid = c.relnamespace
   cross join lateral (values
     ('definition', pg_get_constraintdef(con.oid)),
     ('comment', obj_description(con.oid, 'pg_constraint'))
   ) as p (property, value)
   where ${projectSchemas}`,

  `select 'index ' || format('%I.%I', n.nspname, c.relname), p.property, p.value
   from pg_index i
   join pg_class c on c.oid = i.indexrelid
   join pg_namespace n on n.oid = c.relnamespace
   cross join lateral (values
     ('definition', pg_get_indexdef(c.oid)),
     ('comment', obj_description(c.oid, 'pg_class'))
   ) as p (property, value)
   where ${projectSchemas}`,

  `select 'function ' || format('%I.%I(%s)', n.nspname, f.proname,
       (select string_agg(format_type(t, null), ',' order by i) from unnest(f.proargtypes::oid[]) with ordinality
         as a (t, i))),
     p.property, p.value
   from pg_proc f
   join pg_namespace n on n.oid = f.pronamespace
   cross join lateral (values
     ('arguments', pg_get_function_arguments(f.oid)),
     ('result', pg_get_function_result(f.oid)),
     ('language', (select l.lanname::text from pg_language l where l.oid = f.prolang)),
     ('body', f.prosrc),
     ('security definer', f.prosecdef::text),
     ('volatility', f.provolatile::text),
     ('strict', f.proisstrict::text),
     ('leakproof', f.proleakproof::text),
     ('parallel', f.proparallel::text),
     ('config', array_to_string(f.proconfig, ', ')),
     ('owner', pg_get_userbyid(f.proowner)::text),
     ('acl', ${sortedAcl('f.proacl')}),
     ('comment', obj_description(f.oid, 'pg_proc'))
   ) as p (property, value)
   where ${projectSchemas} and f.prokind in ('f', 'p')
     and not exists (select from pg_depend dep where dep.objid = f.oid and dep.deptype = 'e')`,

  `select 'policy ' || format('%I on %I.%I', pol.polname, n.nspname, c.relname), p.property, p.value
   from pg_policy pol
   join pg_class c on c.oid = pol.polrelid
   join pg_namespace n on n.oid = c.relnamespace
   cross join lateral (values
     ('kind', case when pol.polpermissive then 'permissive' else 'restrictive' end),
     ('command', pol.polcmd::text),
     ('roles', (select string_agg(case when r = 0 then 'public' else pg_get_userbyid(r)::text end, ', ' order by 1)
       from unnest(pol.polroles) as r)),
     ('using', pg_get_expr(pol.polqual, pol.polrelid)),
     ('with check', pg_get_expr(pol.polwithcheck, pol.polrelid)),
     ('comment', obj_description(pol.oid, 'pg_policy'))
   ) as p (property, value)
   where ${projectSchemas}`,

  `select 'trigger ' || format('%I on %I.%I', t.tgname, n.nspname, c.relname), p.property, p.value
   from pg_trigger t
   join pg_class c on c.oid = t.tgrelid
   join pg_namespace n on n.oid = c.relnamespace
   cross join lateral (values
     ('definition', pg_get_triggerdef(t.oid)),
     ('enabled', t.tgenabled::text),
     ('comment', obj_description(t.oid, 'pg_trigger'))
   ) as p (property, value)
   where ${projectSchemas} and not t.tgisinternal`,

  `select format('default privileges of %s in %s on %s', pg_get_userbyid(d.defaclrole),
       coalesce(d.defaclnamespace::regnamespace::text, 'all schemas'),
       case d.defaclobjtype when 'r' then 'tables' when 'S' then 'sequences' when 'f' then 'functions'
         when 'T' then 'types' when 'n' then 'schemas' end),
     'acl', ${sortedAcl('d.defaclacl')}
   from pg_default_acl d`,

  `select 'publication ' || pub.pubname, p.property, p.value
   from pg_publication pub
   cross join lateral (values
     ('owner', pg_get_userbyid(pub.pubowner)::text),
     ('all tables', pub.puballtables::text),
     ('operations', concat_ws(', ', case when pub.pubinsert then 'insert' end,
       case when pub.pubupdate then 'update' end, case when pub.pubdelete then 'delete' end,
       case when pub.pubtruncate then 'truncate' end))
   ) as p (property, value)`,

  `select format('publication %s table %I.%I', pub.pubname, n.nspname, c.relname), p.property, p.value
   from pg_publication_rel pr
   join pg_publication pub on pub.oid = pr.prpubid
   join pg_class c on c.oid = pr.prrelid
   join pg_namespace n on n.oid = c.relnamespace
   cross join lateral (values
     ('published', 'yes'),
     ('row filter', pg_get_expr(pr.prqual, pr.prrelid)),
     ('columns', (select string_agg(a.attname, ', ' order by a.attnum) from pg_attribute a
       where a.attrelid = pr.prrelid and a.attnum = any(pr.prattrs)))
   ) as p (property, value)`,
];

export async function readCatalog(db: Pick<pg.ClientBase, 'query'>): Promise<Catalog> {
  const catalog: Catalog = new Map();
  for (const query of queries) {
    const { rows } = await db.query<[string, string, string | null]>({ text: query, rowMode: 'array' });
    for (const [object, property, value] of rows) {
      if (value === null || value === '') continue;
      const properties = catalog.get(object) ?? {};
      properties[property] = value;
      catalog.set(object, properties);
    }
  }
  return catalog;
}

/** A value as a person reads it in a one-line report: short ones whole, long ones at their first difference. */
function firstDifference(expected: string, actual: string): string {
  const expectedLines = expected.split('\n');
  const actualLines = actual.split('\n');
  if (expectedLines.length === 1 && actualLines.length === 1 && expected.length + actual.length < 160) {
    return `${JSON.stringify(expected)} in the migrations, ${JSON.stringify(actual)} in the schemas`;
  }
  const line = expectedLines.findIndex((text, index) => text !== actualLines[index]);
  const at = line === -1 ? expectedLines.length : line;
  return (
    `from line ${at + 1}: ${JSON.stringify(expectedLines[at] ?? '(end)')} in the migrations, ` +
    `${JSON.stringify(actualLines[at] ?? '(end)')} in the schemas`
  );
}

/**
 * Each object whose definition differs between a database built from the migrations and one built from
 * the schemas, as `<object>: <what differs>`, sorted by object.
 */
export function catalogDifferences(fromMigrations: Catalog, fromSchemas: Catalog): string[] {
  const differences: string[] = [];
  const objects = [...new Set([...fromMigrations.keys(), ...fromSchemas.keys()])].sort();
  for (const object of objects) {
    const expected = fromMigrations.get(object);
    const actual = fromSchemas.get(object);
    if (!actual) {
      differences.push(`${object}: only in the migrations`);
      continue;
    }
    if (!expected) {
      differences.push(`${object}: only in the schemas`);
      continue;
    }
    for (const property of [...new Set([...Object.keys(expected), ...Object.keys(actual)])]) {
      const before = expected[property] ?? '(none)';
      const after = actual[property] ?? '(none)';
      if (before !== after)
        differences.push(`${object}: ${property} differs (${firstDifference(before, after)})`);
    }
  }
  return differences;
}
