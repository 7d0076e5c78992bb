import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { unusedTotpCode } from '../support/two-factor-sign-in';
import { addDeposit, addWithdrawRequest, connect } from '../support/db';
import {
  endSecurityHoldByAdmin,
  signIn,
  signInAdminWithPasswordOnly,
  signUpNewPerson,
  signUpPersonWithTotp,
  type Person,
} from '../support/api';
import { postJson } from '../support/withdraw-stack';

/**
 * The Edge Functions ask for the second factor as the database does: the admin's functions serve admins at
 * aal2 only, and a person with a verified factor withdraws only from an aal2 session, refused otherwise with
 * a 403 the form can act on (`insufficient_aal`, Auth's own name for it) and nothing stored.
 */
let pool: pg.Pool;

beforeAll(() => {
  pool = connect(inject('databaseUrl'));
});

afterAll(async () => {
  await pool.end();
});

const adminAal2Refusal = {
  error: 'Admins must confirm a code from their authenticator app (aal2) to do this',
  code: 'insufficient_aal',
};

async function withdrawRequestsOf(userId: string): Promise<number> {
  const { rows } = await pool.query<{ count: number }>(
    'select count(*)::int as count from public.withdraw_requests where user_id = $1',
    [userId],
  );
  return rows[0]?.count ?? 0;
}

describe('functions that serve admins', () => {
  let adminWithPasswordOnly: Person;

  beforeAll(async () => {
    adminWithPasswordOnly = await signInAdminWithPasswordOnly();
  });

  it('admin-delete-user refuses an admin at aal1 and deletes nobody', async () => {
    const person = await signUpNewPerson('Not Deleted');
    const response = await fetch(`${inject('apiUrl')}/functions/v1/admin-delete-user`, {
      method: 'POST',
      headers: {
        apikey: inject('anonKey'),
        Authorization: `Bearer ${adminWithPasswordOnly.accessToken}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ userId: person.id }),
    });
    expect({ status: response.status, body: await response.json() }).toEqual({
      status: 403,
      body: adminAal2Refusal,
    });
    const { rowCount } = await pool.query('select 1 from auth.users where id = $1', [person.id]);
    expect(rowCount).toBe(1);
  });

  it('withdrawal-details refuses an admin at aal1 and records no view', async () => {
    const person = await signUpNewPerson('Details Owner');
    await addDeposit(pool, person.id, 100);
    const requestId = await addWithdrawRequest(pool, person.id, 20);
    expect(await postJson('withdrawal-details', adminWithPasswordOnly, { requestId })).toEqual({
      status: 403,
      body: adminAal2Refusal,
    });
    const { rowCount } = await pool.query('select 1 from public.audit_log where target_id = $1', [requestId]);
    expect(rowCount).toBe(0);
  });
});

describe('a withdrawal by a person with a verified factor', () => {
  const withdrawal = {
    amount: 25,
    withdrawMethod: 'wallet',
    details: { cryptoType: 'BTC', walletAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
  };

  it('is refused from a password-only session, then accepted with the same key once the code is verified', async () => {
    const enrolled = await signUpPersonWithTotp('Step Up');
    await endSecurityHoldByAdmin(enrolled.id);
    await addDeposit(pool, enrolled.id, 100);
    const passwordOnly = await signIn(enrolled.email, enrolled.password);
    const key = randomUUID();

    expect(await postJson('withdrawals', passwordOnly, withdrawal, key)).toEqual({
      status: 403,
      body: { error: 'Enter a code from your authenticator app to withdraw', code: 'insufficient_aal' },
    });
    expect(await withdrawRequestsOf(enrolled.id)).toBe(0);

    const verified = await passwordOnly.client.auth.mfa.challengeAndVerify({
      factorId: enrolled.factorId,
      code: await unusedTotpCode(enrolled.totpSecret),
    });
    expect(verified.error).toBeNull();
    const accepted = await postJson(
      'withdrawals',
      { ...passwordOnly, accessToken: verified.data?.access_token ?? '' },
      withdrawal,
      key,
    );
    expect(accepted).toMatchObject({ status: 201, body: { user_id: enrolled.id, status: 'pending' } });
    expect(await withdrawRequestsOf(enrolled.id)).toBe(1);
  });

  it("cannot be bypassed: create_withdraw_request over REST is the withdrawals function's alone", async () => {
    const enrolled = await signUpPersonWithTotp('Bypass');
    await endSecurityHoldByAdmin(enrolled.id);
    await addDeposit(pool, enrolled.id, 100);
    const passwordOnly = await signIn(enrolled.email, enrolled.password);
    const { error } = await passwordOnly.client.rpc('create_withdraw_request', {
      request_id: randomUUID(),
      user_id: enrolled.id,
      session_id: randomUUID(),
      amount: 25,
      withdraw_method: 'bank',
      encrypted_data: 'iv.data.key',
      details_key_version: 1,
      details_digest: 'digest',
      idempotency_key: randomUUID(),
    });
    expect(error).toMatchObject({
      code: '42501',
      message: 'permission denied for function create_withdraw_request',
    });
    expect(await withdrawRequestsOf(enrolled.id)).toBe(0);
  });
});
