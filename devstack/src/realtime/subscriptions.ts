/**
 * `config.postgres_changes` entries of a channel join, as realtime-js sends them:
 * `{ event: 'INSERT' | 'UPDATE' | 'DELETE' | '*', schema, table?, filter? }` with a filter such as
 * `user_id=eq.<uuid>` or `status=in.(pending,approved)`.
 */
export interface PostgresChangesParams {
  event: string;
  schema: string;
  table?: string;
  filter?: string;
}

export interface ColumnFilter {
  column: string;
  op: 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'in';
  values: string[];
}

export type ParsedSubscription =
  | { ok: true; params: PostgresChangesParams; filters: ColumnFilter[] }
  | { ok: false; params: PostgresChangesParams; error: string };

const events = new Set(['*', 'INSERT', 'UPDATE', 'DELETE']);
const operators = new Set<ColumnFilter['op']>(['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in']);

function isOperator(value: string): value is ColumnFilter['op'] {
  return (operators as Set<string>).has(value);
}

export function parseFilter(filter: string): ColumnFilter | string {
  const match = /^([^=]+)=([a-z]+)\.(.*)$/s.exec(filter);
  if (!match) return `Error parsing \`filter\` params: ${filter}`;
  const [, column = '', op = '', value = ''] = match;
  if (!isOperator(op)) return `Error parsing \`filter\` params: unknown operator ${op}`;
  if (op !== 'in') return { column, op, values: [value] };
  const list = /^\((.*)\)$/s.exec(value);
  if (!list) return `Error parsing \`filter\` params: ${filter}`;
  const values = (list[1] ?? '').split(',').map((item) => item.trim().replace(/^"(.*)"$/s, '$1'));
  return { column, op, values };
}

/** Reads one entry; a malformed one is kept (the client matches replies by position) but marked. */
export function parseSubscription(entry: unknown): ParsedSubscription {
  const raw = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
  const params: PostgresChangesParams = {
    event: typeof raw.event === 'string' ? raw.event : '',
    schema: typeof raw.schema === 'string' ? raw.schema : '',
    ...(typeof raw.table === 'string' ? { table: raw.table } : {}),
    ...(typeof raw.filter === 'string' ? { filter: raw.filter } : {}),
  };
  if (!events.has(params.event.toUpperCase())) {
    return { ok: false, params, error: `Unknown event ${params.event}: use INSERT, UPDATE, DELETE or *` };
  }
  if (!params.schema) return { ok: false, params, error: 'A postgres_changes subscription needs a schema' };
  if (params.filter === undefined || params.filter === '') return { ok: true, params, filters: [] };
  const filter = parseFilter(params.filter);
  if (typeof filter === 'string') return { ok: false, params, error: filter };
  return { ok: true, params, filters: [filter] };
}

/** Whether a change of `type` on `schema.table` concerns a subscription with these params. */
export function concerns(
  params: PostgresChangesParams,
  schema: string,
  table: string,
  type: string,
): boolean {
  const event = params.event.toUpperCase();
  return (
    (params.schema === '*' || params.schema === schema) &&
    (params.table === undefined || params.table === '*' || params.table === table) &&
    (event === '*' || event === type)
  );
}

const uuidOid = 2950;
const textOids = new Set([25, 1043]);
const integerOids = new Set([20, 21, 23]);

function sameValue(typeOid: number, columnText: string, filterValue: string): boolean | null {
  if (typeOid === uuidOid) {
    // Postgres writes a uuid in one form, which a filter usually repeats: compare as written first.
    if (columnText === filterValue) return true;
    const normalize = (uuid: string) => uuid.replace(/[{}-]/g, '').toLowerCase();
    return normalize(columnText) === normalize(filterValue.trim());
  }
  if (textOids.has(typeOid)) return columnText === filterValue;
  if (integerOids.has(typeOid) && /^\s*[+-]?\d+\s*$/.test(filterValue))
    return BigInt(columnText) === BigInt(filterValue);
  return null;
}

/**
 * Whether `eq`/`in` filters certainly reject this row, decided from the row's text values for types
 * whose text comparison is exact (uuid, text, integers). Only ever used to skip the database: a row
 * that may match is still checked there, with the column's own type and the subscriber's privileges.
 */
export function certainlyFilteredOut(
  filters: ColumnFilter[],
  columns: { name: string; typeOid: number }[],
  values: Record<string, unknown> | null,
): boolean {
  if (!values) return false;
  return filters.some((filter) => {
    if (filter.op !== 'eq' && filter.op !== 'in') return false;
    const column = columns.find((candidate) => candidate.name === filter.column);
    const value = values[filter.column];
    if (!column) return false;
    if (value === null) return true;
    if (typeof value !== 'string') return false;
    const matches = filter.values.map((filterValue) => sameValue(column.typeOid, value, filterValue));
    return matches.every((match) => match === false);
  });
}
