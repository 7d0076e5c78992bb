import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isLimitRefusal, outsideLimitsMessage } from '@domain/limits.ts';
import {
  appRoles,
  builtInStatusNames,
  requestStatuses,
  transactionStatuses,
  transactionTypes,
} from '@domain/statuses.ts';
import { withdrawMethods } from '@domain/withdrawal.ts';
import { connect } from '../support/db';

/**
 * The domain module (packages/domain) and the migrations name the same things: the database keeps its own
 * checks, and this reads them back from the database, so neither side can gain or lose a word alone.
 */
let pool: pg.Pool;

beforeAll(() => {
  pool = connect(inject('databaseUrl'));
});

afterAll(async () => {
  await pool.end();
});

async function enumLabels(type: string): Promise<string[]> {
  const { rows } = await pool.query<{ label: string }>(
    `select enumlabel as label from pg_enum where enumtypid = $1::regtype order by enumsortorder`,
    [type],
  );
  return rows.map((row) => row.label);
}

/** The quoted names in a check constraint's definition (`lower(name) not in ('pending', …)`). */
async function namesInCheck(table: string, constraint: string): Promise<string[]> {
  const { rows } = await pool.query<{ definition: string }>(
    `select pg_get_constraintdef(oid) as definition from pg_constraint where conrelid = $1::regclass and conname = $2`,
    [table, constraint],
  );
  return [...(rows[0]?.definition ?? '').matchAll(/'([a-z_]+)'/g)].map((match) => match[1] ?? '');
}

/** The built-in statuses a status-setting body (the private function the keyed RPC calls) hands to `private.assert_known_status`. */
async function builtInStatusesOf(signature: string): Promise<string[]> {
  const { rows } = await pool.query<{ source: string }>(
    `select prosrc as source from pg_proc where oid = $1::regprocedure`,
    [signature],
  );
  const array = /assert_known_status\(\s*wanted,\s*array\[([^\]]*)\]/.exec(rows[0]?.source ?? '')?.[1] ?? '';
  return [...array.matchAll(/'([a-z_]+)'/g)].map((match) => match[1] ?? '');
}

const asSet = (names: readonly string[]) => [...names].sort();

describe('the domain vocabulary is the database vocabulary', () => {
  it('request statuses are the request_status enum', async () => {
    expect(asSet(requestStatuses)).toEqual(asSet(await enumLabels('public.request_status')));
  });

  it('transaction types are the transaction_type enum', async () => {
    expect(asSet(transactionTypes)).toEqual(asSet(await enumLabels('public.transaction_type')));
  });

  it('withdraw methods are the withdraw_method enum', async () => {
    expect(asSet(withdrawMethods)).toEqual(asSet(await enumLabels('public.withdraw_method')));
  });

  it('roles are the app_role enum', async () => {
    expect(asSet(appRoles)).toEqual(asSet(await enumLabels('public.app_role')));
  });

  it('the built-in status names are the ones no status type may take', async () => {
    expect(asSet(builtInStatusNames)).toEqual(
      asSet(await namesInCheck('public.status_types', 'status_types_name_not_built_in')),
    );
  });

  it('a ledger entry takes the built-in transaction statuses, a withdraw request the request statuses', async () => {
    expect(asSet(transactionStatuses)).toEqual(
      asSet(await builtInStatusesOf('private.set_transaction_status(uuid, text)')),
    );
    expect(asSet(requestStatuses)).toEqual(
      asSet(await builtInStatusesOf('private.set_withdraw_request_status(uuid, text, text)')),
    );
  });

  it("the database's limit refusals read as the domain's limit messages", async () => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(
        'update public.transaction_limits set min_amount = 10, max_amount = 12345.5 where id',
      );
      const limits = { minAmount: 10, maxAmount: 12345.5 };
      for (const [amount, what] of [
        [5, 'transaction'],
        [20000, 'transaction'],
        [5, 'withdrawal'],
        [20000, 'withdrawal'],
      ] as const) {
        await client.query('savepoint probe');
        const refusal = await client
          .query('select private.assert_within_limits($1, $2)', [amount, what])
          .then(
            () => undefined,
            (error: Error) => error.message,
          );
        await client.query('rollback to savepoint probe');
        expect(refusal).toBe(outsideLimitsMessage(amount, limits, `${what} amount`));
        expect(isLimitRefusal(refusal ?? '')).toBe(true);
      }
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});
