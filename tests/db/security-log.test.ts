import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { verifySecurityLog, type SecurityLogEntry } from '@domain/security-log.ts';
import {
  addVerifiedFactor,
  changePassword,
  connect,
  createUser,
  errorOf,
  queryAs,
  signedIn,
  signedInWithPasswordOnly,
  type CreatedUser,
} from '../support/db';

/**
 * The security log: each thing the issue lists lands in the person's own log, in order, as one hash chain
 * that the browser's check (packages/domain/security-log.ts) finds intact; an entry altered or removed by
 * someone with the database's keys is found; nobody but the migration owner can rewrite it.
 */
let pool: pg.Pool;
let admin: CreatedUser;
let secondAdmin: CreatedUser;

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  admin = await createUser(pool, { admin: true });
  secondAdmin = await createUser(pool, { admin: true });
});

afterAll(async () => {
  await pool.end();
});

const entrySql = `select user_id::text, seq::integer as seq, recorded_at::text, event, detail, ip, user_agent,
    encode(prev_hash, 'hex') as prev_hash, encode(hash, 'hex') as hash
  from public.security_log where user_id = $1 order by seq`;

/** The person's log as they read it (through their own policy), oldest first. */
async function logOf(person: CreatedUser): Promise<SecurityLogEntry[]> {
  return (await queryAs<SecurityLogEntry>(pool, signedIn(person.id), entrySql, [person.id])).rows;
}

const signIn = (person: CreatedUser, ip: string, userAgent: string) =>
  pool.query<{ id: string }>(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal, ip, user_agent)
     values (gen_random_uuid(), $1, now(), now(), 'aal1', $2, $3) returning id`,
    [person.id, ip, userAgent],
  );

const saveDestination = (person: CreatedUser) =>
  pool.query<{ id: string }>(
    `insert into public.payout_destinations (id, user_id, label, withdraw_method, last4, encrypted_data,
       details_key_version, details_digest, usable_at)
     values (gen_random_uuid(), $1, 'Salary account', 'bank', '6789', 'sealed', 1, repeat('a', 64),
       now() + interval '48 hours') returning id`,
    [person.id],
  );

describe('what the security log records', () => {
  it('records sign-ins with device and address, changes, the address book, freeze and unfreeze, in order', async () => {
    const person = await createUser(pool);
    const chrome = 'Mozilla/5.0 (Windows NT 10.0) Chrome/131.0 Safari/537.36';
    const session = (await signIn(person, '203.0.113.7', chrome)).rows[0]?.id;
    await changePassword(pool, person.id);
    await addVerifiedFactor(pool, person.id);
    const destination = (await saveDestination(person)).rows[0]?.id;
    await pool.query(`update public.payout_destinations set removed_at = now() where id = $1`, [destination]);
    await queryAs(pool, signedIn(person.id), 'select public.set_payout_allowlist(true)');
    await queryAs(pool, signedIn(person.id), 'select public.freeze_my_account()');
    await pool.query('delete from auth.sessions where id = $1', [session]);
    await queryAs(pool, signedIn(admin.id), 'select public.unfreeze_by_admins($1)', [person.id]);
    await queryAs(pool, signedIn(secondAdmin.id), 'select public.unfreeze_by_admins($1)', [person.id]);

    const log = await logOf(person);
    expect(log.map((entry) => [entry.seq, entry.event])).toEqual([
      [1, 'sign_in'],
      [2, 'password'],
      [3, 'factor_added'],
      [4, 'destination_saved'],
      [5, 'destination_removed'],
      [6, 'allowlist_on'],
      [7, 'frozen'],
      [8, 'session_ended'],
      [9, 'unfrozen_by_admins'],
    ]);
    expect(log[0]).toMatchObject({ ip: '203.0.113.7', user_agent: chrome, detail: 'Signed in' });
    expect(log[3]?.detail).toMatch(
      /^Bank account "Salary account" ending in 6789 saved to the address book; usable from /,
    );
    expect(log[6]?.detail).toBe('Account frozen; other sessions signed out');
    expect(await verifySecurityLog(log)).toEqual([]);
  });

  it('records the owner asking to unfreeze, and freezing again cancelling it', async () => {
    const person = await createUser(pool);
    await pool.query(
      `update auth.users set encrypted_password = extensions.crypt('pass-123', extensions.gen_salt('bf')) where id = $1`,
      [person.id],
    );
    await queryAs(pool, signedIn(person.id), 'select public.set_unfreeze_delay_hours(48)');
    await queryAs(pool, signedIn(person.id), 'select public.freeze_my_account()');
    await queryAs(pool, signedIn(person.id), `select public.ask_to_unfreeze('pass-123')`);
    await queryAs(pool, signedIn(person.id), 'select public.freeze_my_account()');

    const log = await logOf(person);
    expect(log.map((entry) => entry.event)).toEqual([
      'password',
      'unfreeze_delay_changed',
      'frozen',
      'unfreeze_asked',
      'unfreeze_cancelled',
    ]);
    expect(log[1]?.detail).toBe('Unfreeze delay set to 2 days');
    expect(log[3]?.detail).toMatch(/^Asked to unfreeze with the password; stays frozen until /);
    expect(await verifySecurityLog(log)).toEqual([]);
  });

  it('records a "this wasn\'t me" report and support lifting its lock', async () => {
    const person = await createUser(pool);
    await pool.query('insert into private.withdrawal_locks (user_id) values ($1)', [person.id]);
    await queryAs(pool, signedIn(admin.id), 'select public.end_security_hold($1)', [person.id]);
    expect((await logOf(person)).map((entry) => entry.event)).toEqual(['not_me_reported', 'lock_ended']);
  });

  it('keeps one chain per person: another person’s events do not enter it', async () => {
    const person = await createUser(pool);
    const other = await createUser(pool);
    await changePassword(pool, person.id);
    await changePassword(pool, other.id);
    await changePassword(pool, person.id);
    const log = await logOf(person);
    expect(log.map((entry) => entry.seq)).toEqual([1, 2]);
    expect(log[1]?.prev_hash).toBe(log[0]?.hash);
    expect(log[0]?.prev_hash).toBe('0'.repeat(64));
  });
});

describe('checking the chain', () => {
  /** Runs `change` as the tables' owner (the only login that may), reads the log, and undoes it all. */
  async function logAfter(person: CreatedUser, change: string): Promise<SecurityLogEntry[]> {
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(change, [person.id]);
      return (await client.query<SecurityLogEntry>(entrySql, [person.id])).rows;
    } finally {
      await client.query('rollback');
      client.release();
    }
  }

  let person: CreatedUser;
  beforeAll(async () => {
    person = await createUser(pool);
    await signIn(person, '198.51.100.4', 'curl/8.5.0');
    await changePassword(pool, person.id);
    await queryAs(pool, signedIn(person.id), 'select public.freeze_my_account()');
  });

  it('finds an honest log intact', async () => {
    expect(await verifySecurityLog(await logOf(person))).toEqual([]);
  });

  it('finds an altered entry: its hash no longer matches what it says', async () => {
    const altered = await logAfter(
      person,
      `update public.security_log set ip = '192.0.2.1' where user_id = $1 and seq = 1`,
    );
    expect(await verifySecurityLog(altered)).toEqual([{ seq: 1, problem: 'hash differs from contents' }]);
  });

  it('finds an altered entry whose hash was recomputed: the next entry no longer names it', async () => {
    const altered = await logAfter(
      person,
      `update public.security_log set event = 'sign_in', detail = 'Signed in',
         hash = ledger.entry_hash(private.canonical_security_event(user_id, seq, prev_hash, recorded_at, 'sign_in',
           'Signed in', ip, user_agent))
       where user_id = $1 and seq = 2`,
    );
    expect(await verifySecurityLog(altered)).toEqual([{ seq: 3, problem: 'previous hash differs' }]);
  });

  it('finds a removed entry', async () => {
    const removed = await logAfter(person, 'delete from public.security_log where user_id = $1 and seq = 2');
    expect(await verifySecurityLog(removed)).toEqual([{ seq: 3, problem: 'entries missing' }]);
  });
});

describe('verifying every chain in SQL (public.verify_security_log)', () => {
  interface Finding {
    check: string;
    entry: string;
    subject: string;
  }

  /**
   * Runs `change` as the database owner with every trigger off (`session_replication_role = replica`: the
   * append-only guard too, as someone with the server's keys could), then what an admin's verification of
   * everyone finds, and undoes it all.
   */
  async function findingsAfter(change: string, params: unknown[]): Promise<Finding[]> {
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('set local session_replication_role = replica');
      await client.query(change, params);
      await client.query('set local session_replication_role = origin');
      await client.query(`select set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify({ sub: admin.id, role: 'authenticated', aal: 'aal2' }),
      ]);
      await client.query('set local role authenticated');
      const { rows } = await client.query<Finding>(
        'select "check", entry::text, subject from public.verify_security_log()',
      );
      return rows;
    } finally {
      await client.query('rollback');
      client.release();
    }
  }

  let person: CreatedUser;
  beforeAll(async () => {
    person = await createUser(pool);
    await signIn(person, '198.51.100.9', 'curl/8.5.0');
    await changePassword(pool, person.id);
    await changePassword(pool, person.id);
  });

  it('finds every honest chain intact', async () => {
    const { rows } = await queryAs(pool, signedIn(admin.id), 'select * from public.verify_security_log()');
    expect(rows).toEqual([]);
  });

  it('names the altered entry and its person', async () => {
    const findings = await findingsAfter(
      `update public.security_log set detail = 'Signed in from home' where user_id = $1 and seq = 1`,
      [person.id],
    );
    expect(findings).toEqual([
      { check: 'chain: hash differs from contents', entry: '1', subject: `person ${person.id} entry 1` },
    ]);
  });

  it('finds an entry altered with its hash recomputed: the next one no longer names it', async () => {
    const findings = await findingsAfter(
      `update public.security_log set detail = 'Nothing happened',
         hash = ledger.entry_hash(private.canonical_security_event(user_id, seq, prev_hash, recorded_at, event,
           'Nothing happened', ip, user_agent))
       where user_id = $1 and seq = 2`,
      [person.id],
    );
    expect(findings).toEqual([
      { check: 'chain: previous hash differs', entry: '3', subject: `person ${person.id} entry 3` },
    ]);
  });

  it('finds a removed entry, and the last one removed by the head', async () => {
    expect(
      await findingsAfter('delete from public.security_log where user_id = $1 and seq = 2', [person.id]),
    ).toEqual([
      { check: 'chain: entries missing', entry: '3', subject: `person ${person.id} entries 2 to 2` },
    ]);
    expect(
      await findingsAfter('delete from public.security_log where user_id = $1 and seq = 3', [person.id]),
    ).toEqual([
      { check: 'chain: head differs from last entry', entry: '3', subject: `person ${person.id} head` },
    ]);
  });

  it('checks one person when asked, and refuses anyone but an admin at aal2', async () => {
    const { rows } = await queryAs(pool, signedIn(admin.id), 'select * from public.verify_security_log($1)', [
      person.id,
    ]);
    expect(rows).toEqual([]);
    for (const actor of [signedIn(person.id), signedInWithPasswordOnly(admin.id)]) {
      expect(
        await errorOf(queryAs(pool, actor, 'select * from public.verify_security_log($1)', [person.id])),
      ).toEqual({ code: '42501', message: 'Only admins verify security logs' });
    }
  });
});

describe('append-only', () => {
  it.each([
    ['update public.security_log set detail = $$x$$', 'UPDATE'],
    ['delete from public.security_log', 'DELETE'],
    ['truncate public.security_log', 'TRUNCATE'],
  ])('refuses "%s" to a login that is not the migration owner, superuser or not', async (sql, operation) => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('set local session authorization supabase_admin');
      expect(await errorOf(client.query(sql))).toEqual({
        code: '42501',
        message: `Append-only: ${operation} on public.security_log is refused`,
      });
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});
