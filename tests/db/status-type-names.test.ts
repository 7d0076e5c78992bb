import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { anon, connect, createUser, errorOf, queryAs, signedIn, type CreatedUser } from '../support/db';

/**
 * Status type names a person can tell apart: an admin cannot create a second "Awaiting review" with a
 * non-breaking space, a zero-width character, a Cyrillic or Greek letter, full-width letters or other
 * letter case; every refusal is in plain words and changes nothing.
 */
let pool: pg.Pool;
let admin: CreatedUser;
let person: CreatedUser;
const original = 'Awaiting review';

beforeAll(async () => {
  pool = connect(inject('databaseUrl'));
  admin = await createUser(pool, { admin: true });
  person = await createUser(pool);
  await queryAs(pool, signedIn(admin.id), 'insert into public.status_types (name) values ($1)', [original]);
});

afterAll(async () => {
  await pool.end();
});

const create = (name: string, actorId = admin.id) =>
  queryAs<{ name: string }>(
    pool,
    signedIn(actorId),
    'insert into public.status_types (name) values ($1) returning name',
    [name],
  );

async function names(): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>('select name from public.status_types order by name');
  return rows.map((row) => row.name);
}

/** Normalised to the very same name: the unique constraint refuses it (the app says the name exists). */
const sameName = 'duplicate key value violates unique constraint "status_types_name_key"';
const lookAlike = `A status type that looks the same already exists: "${original}"`;

describe('a look-alike of an existing status type name', () => {
  it.each([
    ['other letter case', 'AWAITING REVIEW', 'A status type with this name already exists'],
    ['a non-breaking space', 'Awaiting\u00a0review', sameName],
    ['doubled spaces', 'Awaiting   review', sameName],
    ['full-width letters', 'Ａｗａｉｔｉｎｇ ｒｅｖｉｅｗ', sameName],
    [
      'a zero-width space',
      'Awaiting\u200b review',
      'Status type name cannot contain invisible or control characters',
    ],
    [
      'a right-to-left mark',
      '\u200fAwaiting review',
      'Status type name cannot contain invisible or control characters',
    ],
    [
      'a control character',
      'Awaiting\u0007review',
      'Status type name cannot contain invisible or control characters',
    ],
    [
      'a Cyrillic а inside Latin',
      'Awаiting review',
      'Status type name must use one alphabet, not a mix of Cyrillic and Latin letters',
    ],
    [
      'a Greek ο inside Latin',
      'Awaiting reviεw',
      'Status type name must use one alphabet, not a mix of Greek and Latin letters',
    ],
    ['a digit for a letter', 'Awa1ting review', lookAlike],
    ['a capital I for a small l', 'Awaiting revIew', 'A status type with this name already exists'],
  ])('with %s is refused in plain words and nothing is created', async (_what, name, message) => {
    const before = await names();
    expect((await errorOf(create(name))).message).toBe(message);
    expect(await names()).toEqual(before);
  });

  it('written wholly in Cyrillic look-alike letters is refused as a look-alike', async () => {
    await create('Pac');
    const before = await names();
    expect((await errorOf(create('Расk'))).message).toBe(
      'Status type name must use one alphabet, not a mix of Cyrillic and Latin letters',
    );
    expect((await errorOf(create('Рас'))).message).toBe(
      'A status type that looks the same already exists: "Pac"',
    );
    expect(await names()).toEqual(before);
  });

  it('of a built-in status is refused as built in', async () => {
    expect((await errorOf(create('Pend1ng'))).message).toBe('Status "Pend1ng" is built in');
    expect((await errorOf(create('C0MPLETE'))).message).toBe('Status "C0MPLETE" is built in');
  });

  it('cannot be slipped in by the database operator either (the unique skeleton)', async () => {
    const error = await errorOf(
      pool.query(`insert into public.status_types (name) values ('awaiting REVIEW')`),
    );
    expect(error.message).toBe('A status type with this name already exists');
  });
});

describe('a new status type name', () => {
  it('is stored normalised: NFKC, single spaces, trimmed', async () => {
    const { rows } = await create('  Ｓｈｉｐｐｅｄ\u00a0 abroad ');
    expect(rows).toEqual([{ name: 'Shipped abroad' }]);
  });

  it('in one non-Latin script is accepted, and unique regardless of its letter case', async () => {
    const { rows } = await create('Отправлено');
    expect(rows).toEqual([{ name: 'Отправлено' }]);
    expect((await errorOf(create('ОТПРАВЛЕНО'))).message).toBe(
      'A status type that looks the same already exists: "Отправлено"',
    );
  });

  it.each([
    ['anon', () => queryAs(pool, anon, 'insert into public.status_types (name) values ($1)', ['Held'])],
    ['the owner of a request', () => create('Held', person.id)],
  ])('is refused for %s', async (_who, attempt) => {
    const error = await errorOf(attempt());
    expect(error.code).toBe('42501');
  });
});
