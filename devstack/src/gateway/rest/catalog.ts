import type pg from 'pg';

export interface Relation {
  name: string;
  columns: Set<string>;
  primaryKey: string[];
}

export interface RoutineArgument {
  name: string;
  type: string;
}

export interface Routine {
  name: string;
  /** Input arguments in order; the last `defaults` of them have defaults. */
  arguments: RoutineArgument[];
  defaults: number;
  returnsSet: boolean;
  returnsVoid: boolean;
  /** Rows with columns (composite, record, table) rather than a scalar. */
  returnsRows: boolean;
}

export interface Catalog {
  relations: Map<string, Relation>;
  routines: Map<string, Routine[]>;
}

interface ColumnRow {
  relation: string;
  column: string;
  primary_key: boolean;
}

interface RoutineRow {
  name: string;
  returns_set: boolean;
  returns_void: boolean;
  returns_rows: boolean;
  argument_names: string[] | null;
  argument_modes: string[] | null;
  all_argument_types: string[] | null;
  input_argument_types: string[];
  defaults: number;
}

/** PostgREST's schema cache: the exposed schema's relations, columns and functions, read from the catalogue. */
export async function loadCatalog(db: Pick<pg.Pool, 'query'>): Promise<Catalog> {
  const columns = await db.query<ColumnRow>(
    `select c.relname as relation, a.attname as column,
       coalesce(a.attnum = any(i.indkey), false) as primary_key
     from pg_catalog.pg_class c
     join pg_catalog.pg_namespace n on n.oid = c.relnamespace
     join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
     left join pg_catalog.pg_index i on i.indrelid = c.oid and i.indisprimary
     where n.nspname = 'public' and c.relkind in ('r', 'v', 'm', 'p', 'f')
     order by c.relname, a.attnum`,
  );
  const relations = new Map<string, Relation>();
  for (const row of columns.rows) {
    let relation = relations.get(row.relation);
    if (!relation) {
      relation = { name: row.relation, columns: new Set(), primaryKey: [] };
      relations.set(row.relation, relation);
    }
    relation.columns.add(row.column);
    if (row.primary_key) relation.primaryKey.push(row.column);
  }

  const functions = await db.query<RoutineRow>(
    `select p.proname as name, p.proretset as returns_set,
       p.prorettype = 'pg_catalog.void'::pg_catalog.regtype as returns_void,
       (t.typtype = 'c' or p.prorettype = 'pg_catalog.record'::pg_catalog.regtype) as returns_rows,
       p.proargnames as argument_names, p.proargmodes::text[] as argument_modes,
       array(select pg_catalog.format_type(x, null) from unnest(p.proallargtypes) x) as all_argument_types,
       array(select pg_catalog.format_type(x, null) from unnest(p.proargtypes) x) as input_argument_types,
       p.pronargdefaults as defaults
     from pg_catalog.pg_proc p
     join pg_catalog.pg_namespace n on n.oid = p.pronamespace
     join pg_catalog.pg_type t on t.oid = p.prorettype
     where n.nspname = 'public' and p.prokind = 'f'`,
  );
  const routines = new Map<string, Routine[]>();
  for (const row of functions.rows) {
    const names = row.argument_names ?? [];
    const modes = row.argument_modes;
    const allTypes = modes ? (row.all_argument_types ?? []) : row.input_argument_types;
    const args: RoutineArgument[] = [];
    allTypes.forEach((type, index) => {
      const mode = modes?.[index] ?? 'i';
      if (mode === 'i' || mode === 'b' || mode === 'v') args.push({ name: names[index] ?? '', type });
    });
    const routine: Routine = {
      name: row.name,
      arguments: args,
      defaults: row.defaults,
      returnsSet: row.returns_set,
      returnsVoid: row.returns_void,
      returnsRows: row.returns_rows,
    };
    routines.set(row.name, [...(routines.get(row.name) ?? []), routine]);
  }
  return { relations, routines };
}

/** The overload whose named arguments match the given names exactly, defaults filling the rest. */
export function matchRoutine(candidates: Routine[], givenNames: string[]): Routine | undefined {
  return candidates.find((routine) => {
    const names = routine.arguments.map((argument) => argument.name);
    const required = names.slice(0, names.length - routine.defaults);
    return (
      givenNames.every((name) => names.includes(name)) && required.every((name) => givenNames.includes(name))
    );
  });
}
