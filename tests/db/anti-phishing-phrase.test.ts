import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  anon,
  connect,
  createUser,
  errorOf,
  queryAs,
  signedIn,
  signedInWithPasswordOnly,
  type CreatedUser,
} from '../support/db';

/**
 * The anti-phishing phrase in the database: only the person sets it, through set_anti_phishing_phrase and
 * under the rules of every security setting; it stays in their user metadata (what Auth's templates read),
 * and nobody else reads it, the audit log included.
 */
let pool: pg.Pool;

beforeAll(() => {
  pool = connect(inject('databaseUrl'));
});
afterAll(async () => {
  await pool.end();
});

const setPhrase = (person: CreatedUser, phrase: string) =>
  queryAs(pool, signedIn(person.id), 'select public.set_anti_phishing_phrase($1)', [phrase]);

async function phraseOf(person: CreatedUser): Promise<unknown> {
  const { rows } = await pool.query<{ phrase: unknown }>(
    `select raw_user_meta_data -> 'anti_phishing_phrase' as phrase from auth.users where id = $1`,
    [person.id],
  );
  return rows[0]?.phrase ?? null;
}

describe('set_anti_phishing_phrase', () => {
  it('keeps the phrase, trimmed, in the person’s user metadata beside what was there', async () => {
    const person = await createUser(pool, { fullName: 'Ada Phrase' });
    await setPhrase(person, '  purple heron at dawn ');
    expect(await phraseOf(person)).toBe('purple heron at dawn');
    const { rows } = await pool.query(
      `select raw_user_meta_data ->> 'full_name' as name from auth.users where id = $1`,
      [person.id],
    );
    expect(rows[0]).toEqual({ name: 'Ada Phrase' });
  });

  it('removes it when given blanks', async () => {
    const person = await createUser(pool);
    await setPhrase(person, 'purple heron');
    await setPhrase(person, '   ');
    expect(await phraseOf(person)).toBeNull();
  });

  it.each([
    ['abc', 'The anti-phishing phrase must be 4 to 40 characters'],
    ['x'.repeat(41), 'The anti-phishing phrase must be 4 to 40 characters'],
    ['two\nlines', 'The anti-phishing phrase must be one line of text'],
  ])('refuses %j with a message and changes nothing', async (phrase, message) => {
    const person = await createUser(pool);
    await setPhrase(person, 'the old phrase');
    expect(await errorOf(setPhrase(person, phrase))).toEqual({ code: 'P0001', message });
    expect(await phraseOf(person)).toBe('the old phrase');
  });

  it('audits the change without the words and mails the person a security e-mail', async () => {
    const person = await createUser(pool);
    await setPhrase(person, 'secret words here');
    const audit = await pool.query(
      `select details from public.audit_log where target_id = $1 and action = 'account.anti_phishing_phrase'`,
      [person.id],
    );
    expect(audit.rows).toEqual([{ details: { set: true } }]);
    const mails = await pool.query(`select subject, body from private.security_emails where user_id = $1`, [
      person.id,
    ]);
    expect(mails.rows).toEqual([
      {
        subject: 'Anti-phishing phrase changed',
        body: expect.stringContaining('Every e-mail from CoinVault now starts with it.'),
      },
    ]);
    expect(JSON.stringify(mails.rows)).not.toContain('secret words here');
  });

  it('is refused to anon, to a factor holder below aal2 and on a frozen account', async () => {
    expect(
      await errorOf(queryAs(pool, anon, `select public.set_anti_phishing_phrase('from nowhere')`)),
    ).toMatchObject({
      code: '42501',
    });
    const holder = await createUser(pool, { twoFactor: true });
    expect(
      await errorOf(
        queryAs(
          pool,
          signedInWithPasswordOnly(holder.id),
          `select public.set_anti_phishing_phrase('half signed in')`,
        ),
      ),
    ).toEqual({
      code: '42501',
      message: 'Enter a code from your authenticator app to change your security settings',
    });
    const frozen = await createUser(pool);
    await queryAs(pool, signedIn(frozen.id), 'select public.freeze_my_account()');
    expect(await errorOf(setPhrase(frozen, 'while frozen'))).toEqual({
      code: 'P0001',
      message: 'Your account is frozen: security settings cannot change until it is unfrozen',
    });
    expect([await phraseOf(holder), await phraseOf(frozen)]).toEqual([null, null]);
  });

  it('sets only the caller’s own phrase: an admin setting one changes no one else’s', async () => {
    const person = await createUser(pool);
    const admin = await createUser(pool, { admin: true });
    await setPhrase(person, 'mine alone');
    await setPhrase(admin, 'the admin’s');
    expect([await phraseOf(person), await phraseOf(admin)]).toEqual(['mine alone', 'the admin’s']);
  });
});

describe('the phrase outside set_anti_phishing_phrase', () => {
  it('is kept when Auth writes the metadata naming it (PUT /user data) and dropped from a sign-up', async () => {
    const person = await createUser(pool, { metadata: { anti_phishing_phrase: 'smuggled at sign-up' } });
    expect(await phraseOf(person)).toBeNull();
    await setPhrase(person, 'the real phrase');
    await pool.query(
      `update auth.users set raw_user_meta_data = raw_user_meta_data || '{"anti_phishing_phrase": "attacker", "theme": "dark"}'
       where id = $1`,
      [person.id],
    );
    await pool.query(`update auth.users set raw_user_meta_data = '{}' where id = $1`, [person.id]);
    expect(await phraseOf(person)).toBe('the real phrase');
  });

  it('is read by nobody else: not another person, not an admin, not through profiles', async () => {
    const person = await createUser(pool);
    await setPhrase(person, 'hidden words');
    const admin = await createUser(pool, { admin: true });
    for (const reader of [signedIn(admin.id), signedIn((await createUser(pool)).id)]) {
      expect(await errorOf(queryAs(pool, reader, 'select raw_user_meta_data from auth.users'))).toMatchObject(
        {
          code: '42501',
        },
      );
      const { rows } = await queryAs(pool, reader, 'select * from public.profiles where id = $1', [
        person.id,
      ]);
      expect(JSON.stringify(rows)).not.toContain('hidden words');
    }
  });
});
