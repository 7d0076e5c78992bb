import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isMoneyGateRefusal } from '@domain/money-gate.ts';
import {
  actAs,
  addSession,
  addBuyRequest,
  addPendingDeposit,
  addSellRequest,
  anon,
  connect,
  createUser,
  createWithdrawRequest,
  errorOf,
  moneyStateOf,
  onlyRow,
  queryAs,
  serviceRole,
  signedIn,
  signedInWithPasswordOnly,
  type Actor,
  type CreatedUser,
} from '../support/db';
import { moveBack } from '../support/time-travel';

/**
 * The self-service freeze, rule by rule in the database: a frozen account moves nothing but deposits on every
 * path (asked or approved, open requests included), changes no security setting, and unfreezes only after the
 * person's delay or with two admins. Each function is also called by every role.
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

const personsRefusal =
  'Your account is frozen: no money leaves and nothing is bought or sold until you unfreeze it.';
const adminsRefusal =
  'Not approved. Frozen: this person froze their account. Nothing but deposits moves until it is unfrozen (by ' +
  'them after their delay, or by two admins).';
const settingsRefusal = 'Your account is frozen: security settings cannot change until it is unfrozen';

const freeze = (person: CreatedUser) =>
  queryAs(pool, signedIn(person.id), 'select public.freeze_my_account()');

const asAdmin = (by: CreatedUser, sql: string, params: unknown[]) =>
  queryAs(pool, signedIn(by.id), sql, params);

describe('a frozen account: every money path', () => {
  it('refuses a new buy, sell and withdrawal, in the person’s words', async () => {
    const person = await createUser(pool, { deposit: 200 });
    await addSellRequest(pool, person.id); // holds a coin
    await freeze(person);
    const before = await moneyStateOf(pool, person.id);
    const asked = [
      queryAs(
        pool,
        signedIn(person.id),
        `select public.create_buy_request('bitcoin', 20, gen_random_uuid())`,
      ),
      queryAs(
        pool,
        signedIn(person.id),
        `select public.create_sell_request('bitcoin', 0.0001, gen_random_uuid())`,
      ),
      createWithdrawRequest(pool, signedIn(person.id), { amount: 20 }),
    ];
    // Every refusal is taken at once, so none goes unhandled while another is awaited.
    for (const error of await Promise.all(asked.map(errorOf)))
      expect(error).toEqual({ code: 'P0001', message: personsRefusal });
    expect(isMoneyGateRefusal(personsRefusal)).toBe(true);
    expect(await moneyStateOf(pool, person.id)).toEqual(before);
  });

  it('holds the open buy, sell and withdrawal: their approvals are refused with the reason', async () => {
    const person = await createUser(pool, { deposit: 200 });
    const buy = await addBuyRequest(pool, person.id, 20);
    const sell = await addSellRequest(pool, person.id);
    const { rows } = await createWithdrawRequest(pool, signedIn(person.id), { amount: 20 });
    await freeze(person);
    const before = await moneyStateOf(pool, person.id);
    const approvals = [
      asAdmin(admin, 'select public.approve_buy_request($1, gen_random_uuid())', [buy]),
      asAdmin(admin, 'select public.approve_sell_request($1, gen_random_uuid())', [sell]),
      asAdmin(admin, `select public.set_withdraw_request_status($1, 'approved', gen_random_uuid())`, [
        onlyRow(rows).id,
      ]),
    ];
    for (const error of await Promise.all(approvals.map(errorOf)))
      expect(error).toEqual({ code: 'P0001', message: adminsRefusal });
    const { rows: queue } = await asAdmin(
      admin,
      'select held_because from public.withdraw_requests_with_user where id = $1',
      [onlyRow(rows).id],
    );
    expect(onlyRow(queue)).toEqual({ held_because: adminsRefusal.replace('Not approved. ', '') });
    expect(await moneyStateOf(pool, person.id)).toEqual(before);
  });

  it('refuses a complete withdrawal entry written straight to the ledger', async () => {
    const person = await createUser(pool, { deposit: 200 });
    await freeze(person);
    const error = await errorOf(
      pool.query(
        `insert into public.transactions (user_id, type, amount, status) values ($1, 'withdraw', 20, 'complete')`,
        [person.id],
      ),
    );
    expect(error).toEqual({ code: 'P0001', message: adminsRefusal });
  });

  it('lets a deposit complete: money arriving cannot be stolen', async () => {
    const person = await createUser(pool, { deposit: 200 });
    const deposit = await addPendingDeposit(pool, person.id, 40);
    await freeze(person);
    await asAdmin(admin, `select public.set_transaction_status($1, 'complete', gen_random_uuid())`, [
      deposit,
    ]);
    expect(await moneyStateOf(pool, person.id)).toMatchObject({ balance: 240 });
  });
});

describe('a frozen account: security settings', () => {
  it('refuses the password, e-mail, factors, address book, allowlist switch-off, waits and delay', async () => {
    const person = await createUser(pool, { twoFactor: true });
    await queryAs(pool, signedIn(person.id), 'select public.set_payout_allowlist(true)');
    await freeze(person);
    const changes = [
      () => pool.query(`update auth.users set encrypted_password = 'changed' where id = $1`, [person.id]),
      () => pool.query(`update auth.users set email = 'thief@example.com' where id = $1`, [person.id]),
      () => pool.query(`delete from auth.mfa_factors where user_id = $1`, [person.id]),
      () =>
        pool.query(
          `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at)
         values (gen_random_uuid(), $1, 'thief', 'totp', 'unverified', now(), now())`,
          [person.id],
        ),
      async () =>
        queryAs(
          pool,
          serviceRole,
          `select public.create_payout_destination(gen_random_uuid(), $1, $2, 'Thief', 'bank', '1234', 'a.b.c',
           1::smallint, repeat('b', 64))`,
          [person.id, await addSession(pool, { role: 'authenticated', userId: person.id })],
        ),
      () => queryAs(pool, signedIn(person.id), 'select public.set_payout_allowlist(false)'),
      () => queryAs(pool, signedIn(person.id), 'select public.set_payout_wait_hours(72)'),
      () => queryAs(pool, signedIn(person.id), 'select public.set_unfreeze_delay_hours(48)'),
    ];
    const outcomes: string[] = [];
    for (const attempt of changes) {
      outcomes.push(
        await attempt().then(
          () => 'changed',
          (error: Error) => error.message,
        ),
      );
    }
    expect(outcomes).toEqual(changes.map(() => settingsRefusal));
  });
});

/** A password the person knows, set before the test (its security hold is over). */
async function setPassword(person: CreatedUser, password: string) {
  await pool.query(
    `update auth.users set encrypted_password = extensions.crypt($2, extensions.gen_salt('bf')) where id = $1`,
    [person.id, password],
  );
  await pool.query(
    `update private.security_holds set changed_at = now() - interval '30 days' where user_id = $1`,
    [person.id],
  );
}

describe('unfreezing', () => {
  it('before the delay: refused without the password, and after asking, still frozen until the delay ends', async () => {
    const person = await createUser(pool, { deposit: 200 });
    await setPassword(person, 'owner-pass-123');
    await queryAs(pool, signedIn(person.id), 'select public.set_unfreeze_delay_hours(72)');
    await freeze(person);

    const wrong = await errorOf(queryAs(pool, signedIn(person.id), `select public.ask_to_unfreeze('guess')`));
    expect(wrong).toEqual({ code: 'P0001', message: 'Wrong password' });
    const { rows } = await queryAs<{ until: string }>(
      pool,
      signedIn(person.id),
      `select public.ask_to_unfreeze('owner-pass-123') as until`,
    );
    const hours = (Date.parse(onlyRow(rows).until) - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(71.9);
    expect(hours).toBeLessThanOrEqual(72);

    const stillFrozen = await errorOf(createWithdrawRequest(pool, signedIn(person.id), { amount: 20 }));
    expect(stillFrozen.message).toBe(personsRefusal);
    // The end's e-mail waits for the end; the start's goes now.
    const { rows: mails } = await pool.query<{ subject: string; waits: boolean }>(
      `select subject, not_before is not null as waits from private.security_emails where user_id = $1
       and subject in ('Unfreezing your account', 'Account unfrozen') order by subject`,
      [person.id],
    );
    expect(mails).toEqual([
      { subject: 'Account unfrozen', waits: true },
      { subject: 'Unfreezing your account', waits: false },
    ]);

    await moveBack(
      pool,
      `update public.account_freezes set unfreeze_at = now() - interval '1 second' where user_id = $1`,
      [person.id],
    );
    const { rows: paid } = await createWithdrawRequest(pool, signedIn(person.id), { amount: 20 });
    expect(onlyRow(paid)).toMatchObject({ status: 'pending' });
  });

  it('asks a person with a factor for a code (aal2) as well as the password', async () => {
    const person = await createUser(pool, { twoFactor: true });
    await setPassword(person, 'owner-pass-123');
    await freeze(person);
    const refusal = await errorOf(
      queryAs(pool, signedInWithPasswordOnly(person.id), `select public.ask_to_unfreeze('owner-pass-123')`),
    );
    expect(refusal).toEqual({
      code: '42501',
      message: 'Enter a code from your authenticator app to unfreeze your account',
    });
  });

  it('freezing again during the delay cancels the unfreeze and its e-mail', async () => {
    const person = await createUser(pool);
    await setPassword(person, 'owner-pass-123');
    await freeze(person);
    await queryAs(pool, signedIn(person.id), `select public.ask_to_unfreeze('owner-pass-123')`);
    await freeze(person);
    const { rows } = await pool.query(
      `select unfreeze_at, (select count(*)::int from private.security_emails where user_id = $1
       and subject = 'Account unfrozen') as end_mails from public.account_freezes where user_id = $1`,
      [person.id],
    );
    expect(onlyRow(rows)).toEqual({ unfreeze_at: null, end_mails: 0 });
  });

  it('by admins takes two of them: the first proposes, the same one cannot confirm, another does', async () => {
    const person = await createUser(pool, { deposit: 200 });
    await freeze(person);
    const first = await asAdmin(admin, 'select public.unfreeze_by_admins($1) as done', [person.id]);
    expect(onlyRow(first.rows)).toEqual({ done: false });
    expect(await errorOf(asAdmin(admin, 'select public.unfreeze_by_admins($1)', [person.id]))).toEqual({
      code: 'P0001',
      message: 'You approved this already: it is awaiting a second admin',
    });
    expect((await errorOf(createWithdrawRequest(pool, signedIn(person.id), { amount: 20 }))).message).toBe(
      personsRefusal,
    );
    const second = await asAdmin(secondAdmin, 'select public.unfreeze_by_admins($1) as done', [person.id]);
    expect(onlyRow(second.rows)).toEqual({ done: true });
    const { rows } = await createWithdrawRequest(pool, signedIn(person.id), { amount: 20 });
    expect(onlyRow(rows)).toMatchObject({ status: 'pending' });
  });
});

describe('the freeze functions, by role', () => {
  type Who = 'anon' | 'owner' | 'another user' | 'admin at aal1' | 'admin at aal2';
  async function outcomeOf(actor: Actor, sql: string, params: unknown[]) {
    try {
      await actAs(pool, actor, (db) => db.query(sql, params), { rollback: true });
      return 'allowed';
    } catch (error) {
      const { code, message } = error as { code?: string; message: string };
      return code === '42501' ? 'refused' : message;
    }
  }
  let owner: CreatedUser;
  let actors: Record<Who, Actor>;
  beforeAll(async () => {
    owner = await createUser(pool, { deposit: 10 });
    const another = await createUser(pool);
    await freeze(owner);
    actors = {
      anon,
      owner: signedIn(owner.id),
      'another user': signedIn(another.id),
      'admin at aal1': signedInWithPasswordOnly(admin.id),
      'admin at aal2': signedIn(admin.id),
    };
  });
  const cases: [string, string, Record<Who, string>][] = [
    [
      'freeze_my_account (their own account only)',
      'select public.freeze_my_account()',
      {
        anon: 'refused',
        owner: 'allowed',
        'another user': 'allowed',
        'admin at aal1': 'allowed',
        'admin at aal2': 'allowed',
      },
    ],
    [
      'ask_to_unfreeze (their own account only)',
      `select public.ask_to_unfreeze('x')`,
      {
        anon: 'refused',
        owner: 'Wrong password',
        'another user': 'Your account is not frozen',
        'admin at aal1': 'Your account is not frozen',
        'admin at aal2': 'Your account is not frozen',
      },
    ],
    [
      'set_unfreeze_delay_hours (their own, not while frozen)',
      'select public.set_unfreeze_delay_hours(48)',
      {
        anon: 'refused',
        owner: settingsRefusal,
        'another user': 'allowed',
        'admin at aal1': 'refused',
        'admin at aal2': 'allowed',
      },
    ],
  ];
  it.each(cases)('%s', async (_name, sql, expected) => {
    for (const who of Object.keys(expected) as Who[]) {
      expect([who, await outcomeOf(actors[who], sql, [])]).toEqual([who, expected[who]]);
    }
  });
  it('unfreeze_by_admins: admins at aal2 only', async () => {
    const sql = 'select public.unfreeze_by_admins($1)';
    expect(await outcomeOf(actors.anon, sql, [owner.id])).toBe('refused');
    for (const who of ['owner', 'another user', 'admin at aal1'] as const) {
      expect([who, await outcomeOf(actors[who], sql, [owner.id])]).toEqual([who, 'refused']);
    }
    expect(await outcomeOf(actors['admin at aal2'], sql, [owner.id])).toBe('allowed');
  });
});
