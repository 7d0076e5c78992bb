import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { batchWindowMs, maxBatchChanges, waitsForWindow } from '../../devstack/src/realtime/rls-check';
import { connect, createUser, onlyRow } from '../support/db';

/**
 * `realtime.apply_rls_batch` decides for a batch of changes what `realtime.apply_rls` decides for each
 * change alone: who may see which row, and which columns.
 */
let pool: pg.Pool;

beforeAll(() => {
  pool = connect(inject('databaseUrl'));
});

afterAll(async () => {
  await pool.end();
});

interface BatchChange {
  entity: string;
  action: 'INSERT' | 'UPDATE' | 'DELETE';
  record: Record<string, string | null> | null;
  old_record: Record<string, string | null> | null;
  xid: number;
  checks: number[];
}

/** Runs `sql` (one statement returning one row) and gives that row in text form, as replication does. */
async function changedRow(sql: string, values: unknown[]) {
  const { rows } = await pool.query<{ row: Record<string, string | null>; xid: string }>(
    `with changed as (${sql})
     select (select jsonb_object_agg(e.key, e.value #>> '{}') from jsonb_each(to_jsonb(c)) e) as row,
            (pg_catalog.pg_current_xact_id()::text::bigint % 4294967296)::text as xid
       from changed c`,
    values,
  );
  const { row, xid } = onlyRow(rows);
  return { row, xid: Number(xid) };
}

describe('checking a batch of changes', () => {
  it('shows each subscriber exactly what the one-change check shows, across tables, people, filters and a deleted row', async () => {
    const owner = await createUser(pool, { fullName: 'Batch Owner' });
    const other = await createUser(pool, { fullName: 'Batch Other' });
    const admin = await createUser(pool, { fullName: 'Batch Admin', admin: true });
    // Admins see others' rows only at aal2 (private.is_admin()); people are at aal1, as after a password.
    const claims = (id: string, aal = 'aal1') => ({
      role: 'authenticated',
      sub: id,
      aud: 'authenticated',
      aal,
    });
    const checks = [
      { claims: claims(owner.id), filters: [] },
      { claims: claims(other.id), filters: [] },
      { claims: claims(admin.id, 'aal2'), filters: [] },
      { claims: { role: 'anon' }, filters: [] },
      { claims: claims(owner.id), filters: [{ column: 'user_id', op: 'eq', values: [owner.id] }] },
      { claims: claims(admin.id, 'aal2'), filters: [{ column: 'amount', op: 'gt', values: ['50'] }] },
      {
        claims: claims(admin.id, 'aal2'),
        filters: [{ column: 'status', op: 'in', values: ['approved', 'rejected'] }],
      },
    ];
    const everyone = checks.map((_, index) => index);

    const ownersBuy = await changedRow(
      `insert into public.buy_requests (user_id, cryptocurrency, amount) values ($1, 'bitcoin', 40) returning *`,
      [owner.id],
    );
    const othersBuy = await changedRow(
      `insert into public.buy_requests (user_id, cryptocurrency, amount) values ($1, 'bitcoin', 80) returning *`,
      [other.id],
    );
    const approved = await changedRow(
      `update public.buy_requests set status = 'approved', decided_at = now() where id = $1 returning *`,
      [ownersBuy.row.id],
    );
    const ledger = await changedRow(
      `insert into public.transactions (user_id, type, amount, status) values ($1, 'deposit', 60, 'complete') returning *`,
      [other.id],
    );
    const withdrawal = await changedRow(
      `insert into public.withdraw_requests (user_id, amount, withdraw_method, encrypted_data)
       values ($1, 70, 'wallet', 'sealed') returning *`,
      [owner.id],
    );
    const deleted = await changedRow(`delete from public.buy_requests where id = $1 returning *`, [
      othersBuy.row.id,
    ]);

    const changes: BatchChange[] = [
      {
        entity: 'public.buy_requests',
        action: 'INSERT',
        record: ownersBuy.row,
        old_record: null,
        xid: ownersBuy.xid,
        checks: everyone,
      },
      {
        entity: 'public.buy_requests',
        action: 'INSERT',
        record: othersBuy.row,
        old_record: null,
        xid: othersBuy.xid,
        checks: everyone,
      },
      {
        entity: 'public.transactions',
        action: 'INSERT',
        record: ledger.row,
        old_record: null,
        xid: ledger.xid,
        checks: everyone,
      },
      {
        entity: 'public.buy_requests',
        action: 'UPDATE',
        record: approved.row,
        old_record: ownersBuy.row,
        xid: approved.xid,
        checks: everyone,
      },
      {
        entity: 'public.withdraw_requests',
        action: 'INSERT',
        record: withdrawal.row,
        old_record: null,
        xid: withdrawal.xid,
        checks: [0, 1, 2, 3],
      },
      {
        entity: 'public.buy_requests',
        action: 'DELETE',
        record: null,
        old_record: deleted.row,
        xid: deleted.xid,
        checks: everyone,
      },
    ];

    const { rows: batchRows } = await pool.query<{
      change_index: number;
      check_indexes: number[];
      record: unknown;
      old_record: unknown;
      columns: unknown;
    }>('select * from realtime.apply_rls_batch($1, $2)', [JSON.stringify(changes), JSON.stringify(checks)]);
    const fromBatch = batchRows.flatMap(({ change_index, check_indexes, record, old_record, columns }) =>
      check_indexes.map((check) => ({ change: change_index, check, record, old_record, columns })),
    );

    const oneByOne = [];
    for (const [index, change] of changes.entries()) {
      const { rows } = await pool.query<{
        check_index: number;
        record: unknown;
        old_record: unknown;
        columns: unknown;
      }>('select * from realtime.apply_rls($1::regclass, $2, $3, $4, $5, $6)', [
        change.entity,
        change.action,
        change.record,
        change.old_record,
        JSON.stringify(change.checks.map((check) => checks[check])),
        change.xid,
      ]);
      for (const { check_index, record, old_record, columns } of rows) {
        oneByOne.push({ change: index, check: change.checks[check_index], record, old_record, columns });
      }
    }

    const byChangeAndCheck = (a: { change: number; check?: number }, b: { change: number; check?: number }) =>
      a.change - b.change || (a.check ?? 0) - (b.check ?? 0);
    expect(fromBatch.sort(byChangeAndCheck)).toEqual(oneByOne.sort(byChangeAndCheck));
    // What people see, in short: their own rows, an admin everything, anon nothing, filters applied.
    expect(fromBatch.map(({ change, check }) => `${change}:${check}`)).toEqual([
      '0:0',
      '0:2',
      '0:4',
      '1:1',
      '1:2',
      '1:5',
      '2:1',
      '2:2',
      '2:5',
      '3:0',
      '3:2',
      '3:4',
      '3:6',
      '4:0',
      '4:2',
      '5:1',
      '5:2',
      '5:5',
    ]);
    // Nobody is ever sent a withdrawal's sealed details.
    expect(
      fromBatch
        .filter(({ change }) => change === 4)
        .every(({ record }) => !JSON.stringify(record).includes('sealed')),
    ).toBe(true);
  });
});

describe('gathering changes into batches', () => {
  const justAfterABatch = { alone: false, waiting: 1, sinceLastBatchMs: 20 };

  it('checks a change at once while changes arrive slowly (under 100 a second), however recent the last batch', () => {
    expect(waitsForWindow({ ...justAfterABatch, recentArrivals: 5 })).toBe(false);
  });

  it('holds changes for the rest of the window while they arrive fast, so they go together', () => {
    expect(waitsForWindow({ ...justAfterABatch, recentArrivals: 70 })).toBe(true);
    expect(waitsForWindow({ ...justAfterABatch, recentArrivals: 70, sinceLastBatchMs: batchWindowMs })).toBe(
      false,
    );
  });

  it('never holds a full batch, nor a change being retried on its own', () => {
    expect(waitsForWindow({ ...justAfterABatch, recentArrivals: 300, waiting: maxBatchChanges })).toBe(false);
    expect(waitsForWindow({ ...justAfterABatch, recentArrivals: 70, alone: true })).toBe(false);
  });
});
