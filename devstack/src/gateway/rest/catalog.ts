import type pg from 'pg';
import { restErrors } from './errors';

export interface Relation {
  schema: string;
  name: string;
  columns: Set<string>;
  /** Each column's type (a domain's base type), as PostgREST's `colType`. */
  types: Map<string, string>;
  primaryKey: string[];
  /**
   * Computed fields: functions of the exposed schema taking this relation's row as their one argument,
   * which PostgREST lets a request select, filter and order by like columns.
   */
  computed: Set<string>;
}

export interface RoutineArgument {
  /** Empty for an unnamed argument. */
  name: string;
  type: string;
  /** Without a default. */
  required: boolean;
}

export interface Routine {
  schema: string;
  name: string;
  /** Input arguments in order. */
  arguments: RoutineArgument[];
  returnsSet: boolean;
  returnsVoid: boolean;
  /** Rows with columns (composite, record, table) rather than a scalar. */
  returnsRows: boolean;
  /** The relation of the same schema whose row type it returns, whose computed fields its rows have. */
  returnsRelation: string | null;
}

export interface Catalog {
  relations: Map<string, Relation>;
  routines: Map<string, Routine[]>;
}

interface ColumnRow {
  relation: string;
  column: string;
  type: string;
  primary_key: boolean;
}

interface RoutineRow {
  name: string;
  returns_set: boolean;
  returns_void: boolean;
  returns_rows: boolean;
  returns_relation: string | null;
  arguments: RoutineArgument[];
  callable: boolean;
  computed_field_of: string | null;
}

/** PostgREST's schema cache: an exposed schema's relations, columns and functions, read from the catalogue. */
export async function loadCatalog(db: Pick<pg.Pool, 'query'>, schema: string): Promise<Catalog> {
  const columns = await db.query<ColumnRow>(
    `select c.relname as relation, a.attname as column,
       pg_catalog.format_type(coalesce(nullif(t.typbasetype, 0), t.oid), null) as type,
       coalesce(a.attnum = any(i.indkey), false) as primary_key
     from pg_catalog.pg_class c
     join pg_catalog.pg_namespace n on n.oid = c.relnamespace
     join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
     join pg_catalog.pg_type t on t.oid = a.atttypid
     left join pg_catalog.pg_index i on i.indrelid = c.oid and i.indisprimary
     where n.nspname = $1 and c.relkind in ('r', 'v', 'm', 'p', 'f')
     order by c.relname, a.attnum`,
    [schema],
  );
  const relations = new Map<string, Relation>();
  for (const row of columns.rows) {
    let relation = relations.get(row.relation);
    if (!relation) {
      relation = {
        schema,
        name: row.relation,
        columns: new Set(),
        types: new Map(),
        primaryKey: [],
        computed: new Set(),
      };
      relations.set(row.relation, relation);
    }
    relation.columns.add(row.column);
    relation.types.set(row.column, row.type);
    if (row.primary_key) relation.primaryKey.push(row.column);
  }

  // PostgREST's schema cache (SchemaCache.hs, funcsSqlQuery): input arguments in order, required when
  // before the defaults; a function with one unnamed argument is callable only when it is of a type a raw
  // body can fill (bytea, json, jsonb, text, xml), with more unnamed ones never; trigger functions are not.
  const functions = await db.query<RoutineRow>(
    `with argument_list as (
       select p.oid,
         coalesce(json_agg(json_build_object(
           'name', coalesce(a.name, ''), 'type', a.type::pg_catalog.regtype::text,
           'required', a.idx <= p.pronargs - p.pronargdefaults) order by a.idx), '[]') as arguments,
         case count(*) - count(a.name)
           when 0 then true
           when 1 then (array_agg(a.type order by a.idx))[1] in
             ('bytea'::pg_catalog.regtype, 'json'::pg_catalog.regtype, 'jsonb'::pg_catalog.regtype,
              'text'::pg_catalog.regtype, 'xml'::pg_catalog.regtype)
           else false
         end as callable
       from pg_catalog.pg_proc p,
         unnest(p.proargnames, p.proargtypes, p.proargmodes) with ordinality as a (name, type, mode, idx)
       where a.type is not null
       group by p.oid
     )
     select p.proname as name, p.proretset as returns_set,
       p.prorettype = 'pg_catalog.void'::pg_catalog.regtype as returns_void,
       (t.typtype = 'c' or p.prorettype = 'pg_catalog.record'::pg_catalog.regtype) as returns_rows,
       (select c.relname from pg_catalog.pg_class c
        where c.oid = t.typrelid and c.relnamespace = n.oid) as returns_relation,
       coalesce(l.arguments, '[]') as arguments, coalesce(l.callable, true) as callable,
       (select c.relname from pg_catalog.pg_class c
        where p.pronargs = 1 and c.reltype = p.proargtypes[0] and c.relnamespace = n.oid) as computed_field_of
     from pg_catalog.pg_proc p
     join pg_catalog.pg_namespace n on n.oid = p.pronamespace
     join pg_catalog.pg_type t on t.oid = p.prorettype
     left join argument_list l on l.oid = p.oid
     where n.nspname = $1 and p.prokind = 'f'
       and p.prorettype <> 'pg_catalog.trigger'::pg_catalog.regtype
     order by p.oid`,
    [schema],
  );
  const routines = new Map<string, Routine[]>();
  for (const row of functions.rows) {
    const routine: Routine = {
      schema,
      name: row.name,
      arguments: row.arguments,
      returnsSet: row.returns_set,
      returnsVoid: row.returns_void,
      returnsRows: row.returns_rows,
      returnsRelation: row.returns_relation,
    };
    if (row.callable) routines.set(row.name, [...(routines.get(row.name) ?? []), routine]);
    // Postgres resolves a computed field, so its unnamed row argument need not be callable through REST.
    if (row.computed_field_of) relations.get(row.computed_field_of)?.computed.add(row.name);
  }
  for (const overloads of routines.values()) overloads.sort(byPostgrestOrder);
  return { relations, routines };
}

/**
 * PostgREST keeps a name's overloads sorted (its `Ord Routine`, SchemaCache/Routine.hs): fewer parameters
 * first, then parameter by parameter, name then type, so PGRST203 lists candidates in that order.
 */
function byPostgrestOrder(a: Routine, b: Routine): number {
  if (a.arguments.length !== b.arguments.length) return a.arguments.length - b.arguments.length;
  for (const [index, left] of a.arguments.entries()) {
    const right = b.arguments[index];
    if (!right) return 1;
    for (const key of ['name', 'type'] as const) {
      if (left[key] !== right[key]) return left[key] < right[key] ? -1 : 1;
    }
  }
  return 0;
}

/** What a call offers to match a function by: its argument names and, for a POST, its body's media type. */
export interface CallShape {
  names: Set<string>;
  post: boolean;
  /** The body's media type as PostgREST distinguishes it. */
  media: 'json' | 'text' | 'xml' | 'bytea' | 'other';
}

/** The type of the one unnamed argument each kind of body fills (Plan.hs, `hasSingleUnnamedParam`). */
const unnamedArgumentType: Record<CallShape['media'], string[]> = {
  json: ['json', 'jsonb'],
  text: ['text'],
  xml: ['xml'],
  bytea: ['bytea'],
  other: [],
};

/** A function with one unnamed argument of a type the raw body fills: called with the body itself. */
export function takesRawBody(routine: Routine): boolean {
  return routine.arguments.length === 1 && routine.arguments[0]?.name === '';
}

function matchesNames(routine: Routine, { names, post, media }: CallShape): boolean {
  if (!routine.arguments.length) return names.size === 0 && !(post && media !== 'json' && media !== 'other');
  const required = routine.arguments.filter((argument) => argument.required).map((argument) => argument.name);
  const optional = new Set(
    routine.arguments.filter((argument) => !argument.required).map((argument) => argument.name),
  );
  const givenRequired = [...names].filter((name) => !optional.has(name));
  return givenRequired.length === required.length && required.every((name) => names.has(name));
}

function acceptsRawBody(routine: Routine, { post, media }: CallShape): boolean {
  const type = routine.arguments[0]?.type ?? '';
  return post && takesRawBody(routine) && unnamedArgumentType[media].includes(type);
}

/**
 * PostgREST's `findProc` (Plan.hs): the overload whose named arguments match the given names (required ones
 * all given, optional ones at will); failing that, the one with a single unnamed argument the body fills.
 * None is `undefined`; more than one is ambiguous (300 PGRST203).
 */
export function findRoutine(candidates: Routine[], shape: CallShape): Routine | undefined {
  const byName = candidates.filter((routine) => matchesNames(routine, shape));
  const byBody = candidates.filter(
    (routine) => !matchesNames(routine, shape) && acceptsRawBody(routine, shape),
  );
  const found = byName.length ? byName : byBody;
  if (found.length > 1) throw restErrors.ambiguousFunction(found);
  return found[0];
}
