import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type RunningStack } from '../../devstack/src/stack';

/**
 * The local stack runs any Supabase project, not only CoinVault: here a second one (one table, one policy, one
 * function, an upstream stub and a secret in its devstack.config.ts), copied to a folder of its own.
 */
let projectRoot: string;
let stack: RunningStack;

beforeAll(async () => {
  projectRoot = await mkdtemp(path.join(tmpdir(), 'devstack-second-project-'));
  await cp('tests/fixtures/second-project', projectRoot, { recursive: true });
  stack = await startStack({ projectRoot });
});

afterAll(async () => {
  await stack?.stop();
  await rm(projectRoot, { recursive: true, force: true });
});

async function signUp(email: string): Promise<string> {
  const response = await fetch(`${stack.apiUrl}/auth/v1/signup`, {
    method: 'POST',
    headers: { apikey: stack.anonKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: 'a-long-password' }),
  });
  const session = (await response.json()) as { access_token?: string };
  expect(session.access_token).toBeDefined();
  return session.access_token ?? '';
}

function rest(pathAndQuery: string, token?: string, init: RequestInit = {}) {
  return fetch(`${stack.apiUrl}/rest/v1/${pathAndQuery}`, {
    ...init,
    headers: {
      apikey: stack.anonKey,
      'Content-Type': 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
  });
}

describe('the local stack for another Supabase project', () => {
  it("applies that project's migrations and seed, not CoinVault's", async () => {
    const client = new pg.Client({ connectionString: stack.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string; note: string | null }>(
        `select c.relname as name, obj_description(c.oid, 'pg_class') as note
         from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind = 'r'`,
      );
      expect(rows).toEqual([{ name: 'notes', note: "A person's notes (seeded)." }]);
    } finally {
      await client.end();
    }
  });

  it('serves its table through REST under its own policy: each person sees only their notes', async () => {
    const ada = await signUp('ada@notes.test');
    const grace = await signUp('grace@notes.test');
    const created = await rest('notes', ada, { method: 'POST', body: JSON.stringify({ body: 'buy milk' }) });
    expect(created.status).toBe(201);

    expect(await (await rest('notes?select=body', ada)).json()).toEqual([{ body: 'buy milk' }]);
    expect(await (await rest('notes?select=body', grace)).json()).toEqual([]);
    // Supabase's default grants reach anon too; the policy, written for signed-in people, shows a visitor nothing.
    expect(await (await rest('notes?select=body')).json()).toEqual([]);
  });

  it('runs its function with the caller, its upstream stub and its secret', async () => {
    const token = await signUp('linus@notes.test');
    const response = await fetch(`${stack.apiUrl}/functions/v1/whoami`, {
      method: 'POST',
      headers: { apikey: stack.anonKey, Authorization: `Bearer ${token}` },
    });
    expect(await response.json()).toEqual({
      email: 'linus@notes.test',
      weather: { sky: 'clear' },
      secret: 32,
    });
    // The secret was made on the first start into the project's own functions/.env.
    expect(await readFile(path.join(projectRoot, 'supabase/functions/.env'), 'utf8')).toBe(
      `NOTES_SIGNING_KEY=${'k'.repeat(32)}\n`,
    );
  });
});
