import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connect, onlyRow } from '../support/db';
import { signInAdmin, type Person } from '../support/api';
import { fundedPerson, postJson, uniqueBank, uniqueCard } from '../support/withdraw-stack';

/**
 * The withdrawals function under the attacks and accidents of a custodial wallet: a retried submission, a
 * worker killed after the database call, a key reused for other content, sealed details moved onto
 * another request, and the card secrets a payout must never keep.
 */
let pool: pg.Pool;
let admin: Person;

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  admin = await signInAdmin();
});

afterAll(async () => {
  await pool.end();
});

async function requestsOf(person: Person): Promise<{ id: string; amount: string }[]> {
  const { rows } = await pool.query<{ id: string; amount: string }>(
    'select id, amount::text from public.withdraw_requests where user_id = $1',
    [person.id],
  );
  return rows;
}

const bankWithdrawal = (amount: number, details = uniqueBank()) => ({
  amount,
  withdrawMethod: 'bank',
  details,
});

/** The Deno worker serving `withdrawals` for this test run's gateway (found by its environment). */
async function withdrawalsWorkerPid(): Promise<number> {
  const entry = 'withdrawals/index.ts';
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const environment = await readFile(`/proc/${name}/environ`, 'utf8').catch(() => '');
    const variables = environment.split('\0');
    if (
      variables.some((line) => line.startsWith('DEVSTACK_FUNCTION_ENTRY=') && line.endsWith(entry)) &&
      variables.includes(`SUPABASE_URL=${inject('apiUrl')}`)
    ) {
      return Number(name);
    }
  }
  throw new Error('no withdrawals worker is running');
}

async function waitFor(condition: () => Promise<boolean>) {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('condition never held');
}

describe('a retried withdrawal', () => {
  it('with the same key creates one request and answers it again (same id)', async () => {
    const person = await fundedPerson(pool, 500);
    const key = randomUUID();
    const body = bankWithdrawal(120);
    const first = await postJson('withdrawals', person, body, key);
    const retry = await postJson('withdrawals', person, body, key);
    expect(first.status).toBe(201);
    expect(retry).toEqual(first);
    expect(await requestsOf(person)).toEqual([{ id: first.body.id, amount: '120' }]);
  });

  it('sent twice at the same instant with one key creates one request', async () => {
    const person = await fundedPerson(pool, 500);
    const key = randomUUID();
    const body = bankWithdrawal(75);
    const answers = await Promise.all([
      postJson('withdrawals', person, body, key),
      postJson('withdrawals', person, body, key),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([201, 201]);
    expect(answers[1]?.body.id).toBe(answers[0]?.body.id);
    expect(await requestsOf(person)).toHaveLength(1);
  });

  it('with the same key but another amount or other details is refused, and nothing more is created', async () => {
    const person = await fundedPerson(pool, 500);
    const key = randomUUID();
    const details = uniqueBank();
    await postJson('withdrawals', person, bankWithdrawal(50, details), key);
    for (const changed of [bankWithdrawal(60, details), bankWithdrawal(50, uniqueBank())]) {
      const { status, body } = await postJson('withdrawals', person, changed, key);
      expect(status).toBe(400);
      expect(body).toEqual({ error: 'This request was already submitted with different details' });
    }
    expect(await requestsOf(person)).toHaveLength(1);
  });

  it('without a key is refused before anything is stored', async () => {
    const person = await fundedPerson(pool, 500);
    const { status, body } = await postJson('withdrawals', person, bankWithdrawal(50), 'not-a-uuid');
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'Idempotency-Key header must be a uuid' });
    expect(await requestsOf(person)).toEqual([]);
  });

  it('whose worker was killed after the database call creates one request when retried with its key', async () => {
    const person = await fundedPerson(pool, 500);
    const key = randomUUID();
    const body = bankWithdrawal(90);
    // Warm the worker, then hold the person's wallet lock so the function's database call waits in it.
    await postJson('withdrawals', person, bankWithdrawal(10));
    const holder = await pool.connect();
    let lostAnswer: Promise<{ status: number }>;
    try {
      await holder.query('begin');
      await holder.query('select 1 from public.profiles where id = $1 for update', [person.id]);
      lostAnswer = postJson('withdrawals', person, body, key);
      await waitFor(async () => {
        const { rows } = await pool.query(
          `select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like '%create_withdraw_request%'`,
        );
        return rows.length > 0;
      });
      process.kill(await withdrawalsWorkerPid(), 'SIGKILL');
      expect((await lostAnswer).status).toBeGreaterThanOrEqual(500);
    } finally {
      await holder.query('commit');
      holder.release();
    }

    const retry = await postJson('withdrawals', person, body, key);
    expect(retry.status).toBe(201);
    const ninety = (await requestsOf(person)).filter((row) => row.amount === '90');
    expect(ninety).toEqual([{ id: retry.body.id, amount: '90' }]);
  });
});

describe('sealed details moved onto another request', () => {
  it('are refused to the admin, and the refusal is audited', async () => {
    const attacker = await fundedPerson(pool, 500);
    const victim = await fundedPerson(pool, 500);
    const attackerRequest = await postJson('withdrawals', attacker, bankWithdrawal(40));
    const victimRequest = await postJson('withdrawals', victim, bankWithdrawal(40));
    // What someone with write access to the column (service role, operator, a bug) would do.
    await pool.query(
      `update public.withdraw_requests set encrypted_data = (select encrypted_data from public.withdraw_requests
       where id = $1) where id = $2`,
      [attackerRequest.body.id, victimRequest.body.id],
    );

    const { status, body } = await postJson('withdrawal-details', admin, {
      requestId: victimRequest.body.id,
    });
    expect(status).toBe(422);
    expect(body).toEqual({ error: 'Unable to decrypt data' });
    const { rows } = await pool.query(
      'select actor_id, action from public.audit_log where target_id = $1 and action like $2',
      [victimRequest.body.id, 'withdraw_request.%details%'],
    );
    expect(rows).toEqual([{ actor_id: admin.id, action: 'withdraw_request.details_refused' }]);
  });

  it('are refused when moved to another method on the same request', async () => {
    const person = await fundedPerson(pool, 500);
    const created = await postJson('withdrawals', person, bankWithdrawal(40));
    await pool.query(`update public.withdraw_requests set withdraw_method = 'card' where id = $1`, [
      created.body.id,
    ]);
    const { status } = await postJson('withdrawal-details', admin, { requestId: created.body.id });
    expect(status).toBe(422);
  });
});

describe('a card withdrawal', () => {
  it('validates the CVV and PIN, then keeps neither: the admin sees the card without them', async () => {
    const person = await fundedPerson(pool, 500);
    const card = uniqueCard();
    const refused = await postJson('withdrawals', person, {
      amount: 30,
      withdrawMethod: 'card',
      details: { ...card, pin: 'x' },
    });
    expect(refused.status).toBe(400);

    const created = await postJson('withdrawals', person, {
      amount: 30,
      withdrawMethod: 'card',
      details: card,
    });
    const { status, body } = await postJson('withdrawal-details', admin, { requestId: created.body.id });
    expect(status).toBe(200);
    expect(body).toEqual({
      details: { cardNumber: card.cardNumber, expirationDate: card.expirationDate },
    });
    const stored = onlyRow(
      (
        await pool.query('select details_key_version from public.withdraw_requests where id = $1', [
          created.body.id,
        ])
      ).rows,
    );
    expect(stored).toEqual({ details_key_version: 1 });
  });
});
