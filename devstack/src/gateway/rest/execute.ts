import type { IncomingMessage } from 'node:http';
import type pg from 'pg';
import type { VerifiedClaims } from '../jwt';
import type { Caller } from './caller';
import { restErrors } from './errors';
import type { ParsedQuery } from './query-grammar';
import type { Preferences } from './request';
import { quoteIdent, SqlParams, whereSql, type FieldScope } from './sql';

/** Running a planned statement in the caller's transaction, and the checks PostgREST makes on its result. */

export interface StatementResult {
  body: string | null;
  rows: number;
  total: number | null;
  /** Upserts: how many of the rows were inserted rather than updated. */
  inserted?: number;
}

export function callerOf(claims: VerifiedClaims, request: IncomingMessage, searchPath: string[]): Caller {
  return {
    role: claims.role,
    claims: JSON.stringify(claims),
    method: request.method ?? 'GET',
    path: request.url ?? '',
    searchPath: searchPath.map(quoteIdent).join(', '),
  };
}

export async function runStatement(
  client: pg.PoolClient,
  sql: string,
  params: SqlParams,
): Promise<StatementResult> {
  const result = await client.query<{
    body: string | null;
    rows: string;
    total: string | null;
    inserted?: string;
  }>(sql, params.values);
  const row = result.rows[0];
  if (!row) return { body: null, rows: result.rowCount ?? 0, total: null };
  return {
    body: row.body,
    rows: Number(row.rows),
    total: row.total === null ? null : Number(row.total),
    ...(row.inserted === undefined ? {} : { inserted: Number(row.inserted) }),
  };
}

export function checkSingle(single: boolean, result: StatementResult) {
  if (single && result.rows !== 1) throw restErrors.notSingleObject(result.rows);
}

export function checkMaxAffected(preferences: Preferences, result: StatementResult) {
  if (preferences.maxAffected !== undefined && result.rows > preferences.maxAffected) {
    throw restErrors.maxAffected(result.rows, preferences.maxAffected);
  }
}

/**
 * `count=planned` is the planner's row estimate of the unpaged read (EXPLAIN); `count=estimated` the
 * exact count up to `max_rows`, the estimate beyond it (PostgREST's Query.hs).
 */
export async function countAsPreferred(
  client: pg.PoolClient,
  preferences: Preferences,
  { source, scope }: { source: string; scope: FieldScope },
  query: ParsedQuery,
  exact: number | null,
  maxRows: number,
): Promise<number | null> {
  if (preferences.count === 'exact' || preferences.count === undefined) return exact;
  if (preferences.count === 'estimated' && exact !== null && exact <= maxRows) return exact;
  const params = new SqlParams();
  const plan = await client.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
    `explain (format json) select 1 from ${source}${whereSql(query.where, params, scope)}`,
    params.values,
  );
  return plan.rows[0]?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0;
}
