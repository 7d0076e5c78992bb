import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, sendSecurityEmails, mailTo, signInAdmin, type Person } from '../support/api';
import { connect, createWithdrawRequest, errorOf, onlyRow, signedIn } from '../support/db';
import { endDestinationWait, moveBack } from '../support/time-travel';
import { fundedPerson, postJson, uniqueBank, uniqueCard } from '../support/withdraw-stack';

/**
 * The payout address book: a saved destination (bank account, card or crypto wallet) is usable only after its
 * waiting period, announced by an e-mail whose one-click link cancels it; with the allowlist on, money leaves
 * only to usable saved destinations, and switching the allowlist off takes 48 hours. Each rule is asked of
 * the withdrawals function and of the database directly.
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

const walletDetails = { cryptoType: 'ETH', walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7' };

async function saveDestination(person: Person, withdrawMethod: string, details: object, label = 'Savings') {
  const answer = await postJson('payout-destinations', person, { label, withdrawMethod, details });
  expect(answer.status).toBe(201);
  return String(answer.body.id);
}

async function requestsOf(person: Person) {
  const { rows } = await pool.query<{ id: string; payout_destination_id: string | null }>(
    'select id, payout_destination_id from public.withdraw_requests where user_id = $1',
    [person.id],
  );
  return rows;
}

describe('saving a destination', () => {
  it('lists it by label and last 4 characters, waiting 48 hours, for each of the three methods', async () => {
    const person = await fundedPerson(pool, 500);
    const bank = uniqueBank();
    const card = uniqueCard();
    await saveDestination(person, 'bank', bank, 'Salary account');
    await saveDestination(
      person,
      'card',
      { cardNumber: card.cardNumber, expirationDate: card.expirationDate },
      'Visa',
    );
    await saveDestination(person, 'wallet', walletDetails, 'Cold wallet');

    const { data, error } = await person.client
      .from('payout_destinations')
      .select('label, withdraw_method, last4, created_at, usable_at')
      .order('label');
    expect(error).toBeNull();
    expect(data?.map(({ label, withdraw_method, last4 }) => [label, withdraw_method, last4])).toEqual([
      ['Cold wallet', 'wallet', '9EE7'],
      ['Salary account', 'bank', bank.accountNumber.slice(-4)],
      ['Visa', 'card', card.cardNumber.slice(-4)],
    ]);
    for (const row of data ?? []) {
      expect(Date.parse(row.usable_at) - Date.parse(row.created_at)).toBe(48 * 3600 * 1000);
    }
  });

  it('never keeps a card CVV or PIN: the address book refuses them', async () => {
    const person = await fundedPerson(pool, 500);
    const answer = await postJson('payout-destinations', person, {
      label: 'Card',
      withdrawMethod: 'card',
      details: uniqueCard(),
    });
    expect(answer).toMatchObject({ status: 400, body: { error: 'Unrecognized keys: "cvv", "pin"' } });
    const { rows } = await pool.query('select id from public.payout_destinations where user_id = $1', [
      person.id,
    ]);
    expect(rows).toEqual([]);
  });

  it('refuses the same details twice', async () => {
    const person = await fundedPerson(pool, 500);
    const bank = uniqueBank();
    await saveDestination(person, 'bank', bank);
    const again = await postJson('payout-destinations', person, {
      label: 'Again',
      withdrawMethod: 'bank',
      details: bank,
    });
    expect(again).toMatchObject({
      status: 400,
      body: { error: 'This destination is already in your address book' },
    });
  });

  it('e-mails the person a one-click link that cancels it, signed out', async () => {
    const person = await fundedPerson(pool, 500);
    const id = await saveDestination(person, 'wallet', walletDetails, 'Exchange deposit');
    expect((await sendSecurityEmails()).status).toBe(200);
    const mail = (await mailTo(person.email)).find(
      (message) => message.subject === 'New payout destination saved',
    );
    expect(mail?.text).toContain('"Exchange deposit" (crypto wallet ending in 9EE7)');
    expect(mail?.text).toContain('after a waiting period of 2 days');
    const link = new URL(mail?.links.find((href) => href.includes('/address-book/cancel')) ?? '');

    const visitor = apiClient();
    const cancelled = await visitor.rpc('cancel_payout_destination', {
      token: link.searchParams.get('token') ?? '',
    });
    expect(cancelled).toMatchObject({ data: 'Exchange deposit', error: null });
    const { rows } = await pool.query(
      'select removed_at is not null as removed from public.payout_destinations where id = $1',
      [id],
    );
    expect(onlyRow(rows)).toEqual({ removed: true });
    await endDestinationWait(pool, id);
    const withdrawal = await postJson('withdrawals', person, { amount: 50, destinationId: id });
    expect(withdrawal).toMatchObject({
      status: 400,
      body: { error: 'This destination is not in your address book' },
    });
  });
});

describe('a withdrawal to a new destination before the wait', () => {
  it('is refused by the function, and by the database when asked directly', async () => {
    const person = await fundedPerson(pool, 500);
    const id = await saveDestination(person, 'bank', uniqueBank());
    const answer = await postJson('withdrawals', person, { amount: 50, destinationId: id });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(
      /^This destination can receive money from \d+ \w{3} \d{4}, \d\d:\d\d UTC$/,
    );

    const { rows } = await pool.query<{ details_digest: string }>(
      'select details_digest from public.payout_destinations where id = $1',
      [id],
    );
    const direct = await errorOf(
      createWithdrawRequest(pool, signedIn(person.id), {
        amount: 50,
        payoutDestinationId: id,
        detailsDigest: onlyRow(rows).details_digest,
      }),
    );
    expect(direct.message).toMatch(/^This destination can receive money from /);
    expect(await requestsOf(person)).toEqual([]);
  });

  it('goes through once the wait has passed, paying the saved details', async () => {
    const person = await fundedPerson(pool, 500);
    const bank = uniqueBank();
    const id = await saveDestination(person, 'bank', bank);
    await endDestinationWait(pool, id);
    const answer = await postJson('withdrawals', person, { amount: 50, destinationId: id });
    expect(answer.status).toBe(201);
    expect(await requestsOf(person)).toEqual([{ id: answer.body.id, payout_destination_id: id }]);
    const details = await postJson('withdrawal-details', admin, { requestId: answer.body.id });
    expect(details.body).toMatchObject({ details: { accountNumber: bank.accountNumber } });
  });
});

describe('swapping the payout details of a saved destination', () => {
  it('is refused to the owner through the API: no one may write the address book', async () => {
    const person = await fundedPerson(pool, 500);
    const id = await saveDestination(person, 'bank', uniqueBank());
    const { error } = await person.client
      .from('payout_destinations')
      .update({ label: 'Mine now' })
      .eq('id', id);
    expect(error?.code).toBe('42501');
  });

  it('is refused to the database owner by a trigger', async () => {
    const person = await fundedPerson(pool, 500);
    const first = await saveDestination(person, 'bank', uniqueBank());
    const other = await saveDestination(person, 'bank', uniqueBank(), 'Other');
    const refusal = await errorOf(
      pool.query(
        `update public.payout_destinations set encrypted_data = (select encrypted_data from public.payout_destinations
         where id = $2), details_digest = (select details_digest from public.payout_destinations where id = $2)
         where id = $1`,
        [first, other],
      ),
    );
    expect(refusal.message).toBe('A saved destination cannot be changed: save a new one (it waits again)');
  });

  it('moved past the trigger, the sealed details do not open for another destination', async () => {
    const person = await fundedPerson(pool, 500);
    const first = await saveDestination(person, 'bank', uniqueBank());
    const attackers = await saveDestination(person, 'bank', uniqueBank(), 'Attacker');
    await moveBack(
      pool,
      `update public.payout_destinations set encrypted_data = (select encrypted_data from public.payout_destinations
       where id = $2), usable_at = now() - interval '1 second' where id = $1`,
      [first, attackers],
    );
    const answer = await postJson('withdrawals', person, { amount: 50, destinationId: first });
    expect(answer).toMatchObject({ status: 422 });
    expect(await requestsOf(person)).toEqual([]);
  });

  it('sent beside the saved destination in the form, typed details are refused', async () => {
    const person = await fundedPerson(pool, 500);
    const id = await saveDestination(person, 'bank', uniqueBank());
    await endDestinationWait(pool, id);
    const answer = await postJson('withdrawals', person, {
      amount: 50,
      destinationId: id,
      withdrawMethod: 'bank',
      details: uniqueBank(),
    });
    expect(answer.status).toBe(400);
    expect(await requestsOf(person)).toEqual([]);
  });

  it('asked of the database directly with other details, is refused', async () => {
    const person = await fundedPerson(pool, 500);
    const id = await saveDestination(person, 'bank', uniqueBank());
    await endDestinationWait(pool, id);
    const direct = await errorOf(
      createWithdrawRequest(pool, signedIn(person.id), {
        amount: 50,
        payoutDestinationId: id,
        detailsDigest: 'f'.repeat(64),
      }),
    );
    expect(direct.message).toBe("The payout details differ from the saved destination's");
    expect(await requestsOf(person)).toEqual([]);
  });
});

describe('the allowlist', () => {
  it('on: typed details are refused by the function and the database; a usable saved destination is paid', async () => {
    const person = await fundedPerson(pool, 500);
    const id = await saveDestination(person, 'card', {
      cardNumber: uniqueCard().cardNumber,
      expirationDate: uniqueCard().expirationDate,
    });
    await endDestinationWait(pool, id);
    expect((await person.client.rpc('set_payout_allowlist', { allowlist_on: true })).error).toBeNull();

    const typed = await postJson('withdrawals', person, {
      amount: 50,
      withdrawMethod: 'bank',
      details: uniqueBank(),
    });
    const refusal =
      'Your address book allowlist is on: withdraw to a saved destination whose waiting period has ended';
    expect(typed).toMatchObject({ status: 400, body: { error: refusal } });
    const direct = await errorOf(createWithdrawRequest(pool, signedIn(person.id), { amount: 50 }));
    expect(direct.message).toBe(refusal);
    expect(await requestsOf(person)).toEqual([]);

    const saved = await postJson('withdrawals', person, { amount: 50, destinationId: id });
    expect(saved.status).toBe(201);
  });

  it('switching off waits 48 hours and is e-mailed; switching on again cancels it', async () => {
    const person = await fundedPerson(pool, 500);
    await person.client.rpc('set_payout_allowlist', { allowlist_on: true });
    const { data: asked } = await person.client.rpc('set_payout_allowlist', { allowlist_on: false });
    expect(asked).toMatchObject({ allowlist_on: true });
    expect(Date.parse(String(asked?.allowlist_off_at)) - Date.now()).toBeGreaterThan(47.9 * 3600 * 1000);

    const typed = () =>
      postJson('withdrawals', person, { amount: 20, withdrawMethod: 'bank', details: uniqueBank() });
    expect((await typed()).status).toBe(400);
    expect((await sendSecurityEmails()).status).toBe(200);
    const mail = (await mailTo(person.email)).find(
      (message) => message.subject === 'Address book allowlist switching off',
    );
    expect(mail?.text).toContain('withdrawals still go only to saved destinations');
    expect(mail?.links.some((href) => href.includes('/not-me?token='))).toBe(true);

    await person.client.rpc('set_payout_allowlist', { allowlist_on: true });
    expect(
      onlyRow((await person.client.from('payout_protection').select('allowlist_off_at')).data ?? []),
    ).toEqual({
      allowlist_off_at: null,
    });

    await person.client.rpc('set_payout_allowlist', { allowlist_on: false });
    await moveBack(
      pool,
      "update public.payout_protection set allowlist_off_at = now() - interval '1 second' where user_id = $1",
      [person.id],
    );
    expect((await typed()).status).toBe(201);
  });
});

describe('the waiting period', () => {
  it('may be longer than 48 hours, never shorter; shortening takes effect after the longer wait', async () => {
    const person = await fundedPerson(pool, 500);
    const tooShort = await person.client.rpc('set_payout_wait_hours', { wait_hours: 24 });
    expect(tooShort.error?.message).toBe('The waiting period must be between 48 hours and 30 days');
    expect((await person.client.rpc('set_payout_wait_hours', { wait_hours: 168 })).error).toBeNull();
    expect((await person.client.rpc('set_payout_wait_hours', { wait_hours: 48 })).error).toBeNull();

    await saveDestination(person, 'wallet', walletDetails);
    const { data } = await person.client.from('payout_destinations').select('created_at, usable_at').single();
    expect(Date.parse(String(data?.usable_at)) - Date.parse(String(data?.created_at))).toBe(
      168 * 3600 * 1000,
    );
    expect((await person.client.rpc('my_payout_rules').single()).data).toEqual({
      allowlist_in_force: false,
      wait_hours: 168,
    });
  });

  it('is the owner’s alone: a saved destination is not another person’s to withdraw to', async () => {
    const owner = await fundedPerson(pool, 500);
    const stranger = await fundedPerson(pool, 500);
    const id = await saveDestination(owner, 'bank', uniqueBank());
    await endDestinationWait(pool, id);
    const answer = await postJson('withdrawals', stranger, { amount: 50, destinationId: id }, randomUUID());
    expect(answer).toMatchObject({
      status: 400,
      body: { error: 'This destination is not in your address book' },
    });
  });
});
