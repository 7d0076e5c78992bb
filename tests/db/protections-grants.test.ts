import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  actAs,
  anon,
  connect,
  createUser,
  onlyRow,
  signedIn,
  signedInWithPasswordOnly,
  type Actor,
} from '../support/db';

/**
 * The protections' functions, called by each role as PostgREST would (each call rolled back): who may save,
 * remove or cancel a destination, switch the allowlist and choose the wait. Outcomes: allowed (it ran),
 * refused (42501, no grant) or the function's own refusal (P0001) for a caller it does not serve.
 */
type Who = 'anon' | 'owner' | 'another user' | 'admin at aal1' | 'admin at aal2';
type Outcome = 'allowed' | 'refused' | 'not theirs';

let pool: pg.Pool;
let actors: Record<Who, Actor>;
let destinationId: string;
let cancelToken: string;

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  const owner = await createUser(pool, { fullName: 'Owner' });
  const another = await createUser(pool, { fullName: 'Another' });
  const admin = await createUser(pool, { fullName: 'Admin', admin: true });
  actors = {
    anon,
    owner: signedIn(owner.id),
    'another user': signedIn(another.id),
    'admin at aal1': signedInWithPasswordOnly(admin.id),
    'admin at aal2': signedIn(admin.id),
  };
  const { rows } = await pool.query<{ id: string; cancel_token: string }>(
    `insert into public.payout_destinations (id, user_id, label, withdraw_method, last4, encrypted_data,
     details_key_version, details_digest, usable_at)
     values (gen_random_uuid(), $1, 'Salary', 'bank', '6789', 'iv.ciphertext.key', 1, repeat('0', 64), now())
     returning id, cancel_token`,
    [owner.id],
  );
  ({ id: destinationId, cancel_token: cancelToken } = onlyRow(rows));
});

afterAll(async () => {
  await pool.end();
});

async function outcomeOf(who: Who, sql: string, params: unknown[]): Promise<Outcome> {
  try {
    await actAs(pool, actors[who], (db) => db.query(sql, params), { rollback: true });
    return 'allowed';
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === '42501') return 'refused';
    if (code === 'P0001') return 'not theirs';
    throw error;
  }
}

const everyoneSignedIn = (outcome: Outcome): Record<Who, Outcome> => ({
  anon: 'refused',
  owner: outcome,
  'another user': outcome,
  'admin at aal1': outcome,
  'admin at aal2': outcome,
});

const calls: Record<string, { sql: string; params: () => unknown[]; expected: Record<Who, Outcome> }> = {
  // The payout-destinations function's alone (service role): nobody saves a destination unsealed.
  create_payout_destination: {
    sql: `select public.create_payout_destination(gen_random_uuid(), $1, gen_random_uuid(), 'x', 'bank', '1234',
          'a.b.c', 1::smallint, repeat('a', 64))`,
    params: () => [destinationId],
    expected: { ...everyoneSignedIn('refused') },
  },
  remove_payout_destination: {
    sql: 'select public.remove_payout_destination($1)',
    params: () => [destinationId],
    // An admin at aal1 has a factor: their own address book waits for a code.
    expected: { ...everyoneSignedIn('not theirs'), owner: 'allowed', 'admin at aal1': 'refused' },
  },
  // The e-mail's link works for whoever holds it, signed in or not.
  cancel_payout_destination: {
    sql: 'select public.cancel_payout_destination($1)',
    params: () => [cancelToken],
    expected: { ...everyoneSignedIn('allowed'), anon: 'allowed' },
  },
  // Each person's own settings; a person with a factor changes them only after a code.
  set_payout_allowlist: {
    sql: 'select public.set_payout_allowlist(true)',
    params: () => [],
    expected: { ...everyoneSignedIn('allowed'), 'admin at aal1': 'refused' },
  },
  set_payout_wait_hours: {
    sql: 'select public.set_payout_wait_hours(72)',
    params: () => [],
    expected: { ...everyoneSignedIn('allowed'), 'admin at aal1': 'refused' },
  },
  my_payout_rules: {
    sql: 'select * from public.my_payout_rules()',
    params: () => [],
    expected: everyoneSignedIn('allowed'),
  },
};

describe.each(Object.entries(calls))('%s', (_name, { sql, params, expected }) => {
  it.each(Object.entries(expected).map(([who, outcome]) => ({ who: who as Who, outcome })))(
    'called by $who: $outcome',
    async ({ who, outcome }) => {
      expect(await outcomeOf(who, sql, params())).toBe(outcome);
    },
  );
});
