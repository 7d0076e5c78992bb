import type pg from 'pg';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { totpCode } from '../../devstack/src/gateway/auth/totp';
import { unusedTotpCode } from '../support/two-factor-sign-in';
import { connect } from '../support/db';
import {
  apiClient,
  callApi,
  signIn,
  signUpNewPerson,
  signUpPersonWithTotp,
  type ApiClient,
} from '../support/api';

/**
 * GoTrue's multi-factor API (api/mfa.go) through supabase-js's `auth.mfa`, unchanged: enrol a TOTP factor,
 * challenge and verify it, the session's assurance level, and what may be done at which level.
 */
let pool: pg.Pool;

beforeAll(() => {
  pool = connect(inject('databaseUrl'));
});
afterAll(async () => {
  await pool.end();
});

async function enrolTotp(client: ApiClient, friendlyName?: string) {
  const { data, error } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName });
  if (error) throw error;
  return data;
}

async function claimsOf(client: ApiClient) {
  const { data } = await client.auth.getSession();
  return decodeJwt(data.session?.access_token ?? '') as { aal: string; amr: { method: string }[] };
}

function authCall(token: string, path: string, init: RequestInit = {}) {
  return callApi(`/auth/v1${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
  });
}

describe('enrolling a TOTP factor', () => {
  it('answers the secret, an otpauth URI naming the site and the person, and a QR code of it', async () => {
    const person = await signUpNewPerson();
    const factor = await enrolTotp(person.client, 'Phone');
    expect(factor).toMatchObject({ type: 'totp', friendly_name: 'Phone' });
    expect(factor.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(factor.totp.uri).toBe(
      `otpauth://totp/localhost:5173:${person.email}?algorithm=SHA1&digits=6&issuer=localhost%3A5173&period=30&secret=${factor.totp.secret}`,
    );
    expect(factor.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg/);
    // supabase-js does not escape the SVG: a '#' (a hex colour) would end the data URL and blank the picture.
    expect(factor.totp.qr_code).not.toContain('#');
    const { data } = await person.client.auth.mfa.listFactors();
    expect(data?.all).toEqual([expect.objectContaining({ id: factor.id, status: 'unverified' })]);
    expect(data?.totp).toEqual([]);
  });

  it('refuses a second factor with the same name, and more than ten', async () => {
    const person = await signUpNewPerson();
    await enrolTotp(person.client, 'Phone');
    const same = await person.client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
    expect(same.error).toMatchObject({ status: 422, code: 'mfa_factor_name_conflict' });
    for (let index = 2; index <= 10; index++) await enrolTotp(person.client, `Phone ${index}`);
    const eleventh = await person.client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone 11' });
    expect(eleventh.error).toMatchObject({
      status: 422,
      code: 'too_many_enrolled_mfa_factors',
      message: 'Maximum number of verified factors reached, unenroll to continue',
    });
  });

  it('refuses phone factors by name and a factor type that does not exist', async () => {
    const person = await signUpNewPerson();
    const phone = await authCall(person.accessToken, '/factors', {
      method: 'POST',
      body: JSON.stringify({ factor_type: 'phone', phone: '+15555550100' }),
    });
    expect(phone.status).toBe(422);
    const other = await authCall(person.accessToken, '/factors', {
      method: 'POST',
      body: JSON.stringify({ factor_type: 'sms' }),
    });
    expect(await other.json()).toMatchObject({
      code: 400,
      error_code: 'validation_failed',
      msg: 'factor_type needs to be totp, phone, or webauthn',
    });
  });

  it('needs aal2 once a verified factor exists', async () => {
    const person = await signUpPersonWithTotp();
    const again = await signIn(person.email, person.password);
    const { error } = await again.client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Second' });
    expect(error).toMatchObject({
      status: 403,
      code: 'insufficient_aal',
      message: 'AAL2 required to enroll a new factor',
    });
  });
});

describe('verifying a code', () => {
  it('moves the session to aal2 with totp in its amr, and verifies the factor', async () => {
    const person = await signUpNewPerson();
    const factor = await enrolTotp(person.client);
    expect((await claimsOf(person.client)).aal).toBe('aal1');
    const { error } = await person.client.auth.mfa.challengeAndVerify({
      factorId: factor.id,
      code: await unusedTotpCode(factor.totp.secret),
    });
    expect(error).toBeNull();
    const claims = await claimsOf(person.client);
    expect(claims.aal).toBe('aal2');
    expect(claims.amr.map((entry) => entry.method)).toEqual(['totp', 'password']);
    const { data } = await person.client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    expect((await person.client.auth.mfa.listFactors()).data?.totp).toEqual([
      expect.objectContaining({ id: factor.id, status: 'verified', factor_type: 'totp' }),
    ]);
  });

  it('signs a person with a factor in at aal1 with aal2 next, and keeps aal2 across a refresh', async () => {
    const person = await signUpPersonWithTotp();
    const again = await signIn(person.email, person.password);
    expect((await again.client.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
      currentLevel: 'aal1',
      nextLevel: 'aal2',
    });
    const { error } = await again.client.auth.mfa.challengeAndVerify({
      factorId: person.factorId,
      code: await unusedTotpCode(person.totpSecret),
    });
    expect(error).toBeNull();
    await again.client.auth.refreshSession();
    const claims = await claimsOf(again.client);
    expect(claims.aal).toBe('aal2');
    expect(claims.amr.map((entry) => entry.method)).toContain('totp');
  });

  it("refuses a code used once already, also from another session, and takes the next step's code", async () => {
    const person = await signUpNewPerson();
    const factor = await enrolTotp(person.client);
    const seen = totpCode(factor.totp.secret);
    expect(
      (await person.client.auth.mfa.challengeAndVerify({ factorId: factor.id, code: seen })).error,
    ).toBeNull();

    // Someone who saw the code over the person's shoulder, with the password, within the same 30 s.
    const onlooker = await signIn(person.email, person.password);
    const reused = await onlooker.client.auth.mfa.challengeAndVerify({ factorId: factor.id, code: seen });
    expect(reused.error).toMatchObject({
      status: 422,
      code: 'mfa_verification_failed',
      message: 'Invalid TOTP code entered',
    });
    expect((await claimsOf(onlooker.client)).aal).toBe('aal1');

    const next = totpCode(factor.totp.secret, new Date(Date.now() + 30_000));
    expect(
      (await onlooker.client.auth.mfa.challengeAndVerify({ factorId: factor.id, code: next })).error,
    ).toBeNull();
    expect((await claimsOf(onlooker.client)).aal).toBe('aal2');
  });

  it('refuses a wrong code and leaves the session at aal1', async () => {
    const person = await signUpNewPerson();
    const factor = await enrolTotp(person.client);
    const right = await unusedTotpCode(factor.totp.secret);
    const wrong = right === '000000' ? '000001' : '000000';
    const { error } = await person.client.auth.mfa.challengeAndVerify({ factorId: factor.id, code: wrong });
    expect(error).toMatchObject({
      status: 422,
      code: 'mfa_verification_failed',
      message: 'Invalid TOTP code entered',
    });
    expect((await claimsOf(person.client)).aal).toBe('aal1');
  });

  // The answers are GoTrue's for a wrong code and an unknown challenge (internal/api/mfa.go
  // verifyTOTPFactor, validateChallenge).
  it('uses up a challenge on a wrong code: the right code then needs a new challenge', async () => {
    const person = await signUpNewPerson();
    const factor = await enrolTotp(person.client);
    const right = await unusedTotpCode(factor.totp.secret);
    const wrong = right === '000000' ? '000001' : '000000';
    const challenge = await person.client.auth.mfa.challenge({ factorId: factor.id });
    const challengeId = challenge.data?.id ?? '';
    const guessed = await person.client.auth.mfa.verify({ factorId: factor.id, challengeId, code: wrong });
    expect(guessed.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
    const retried = await person.client.auth.mfa.verify({ factorId: factor.id, challengeId, code: right });
    expect(retried.error).toMatchObject({
      status: 422,
      code: 'mfa_factor_not_found',
      message: 'MFA factor with the provided challenge ID not found',
    });
    expect((await claimsOf(person.client)).aal).toBe('aal1');
    expect(
      (await person.client.auth.mfa.challengeAndVerify({ factorId: factor.id, code: right })).error,
    ).toBeNull();
  });

  it('refuses a challenge used once already, an expired one and an empty code', async () => {
    const person = await signUpNewPerson();
    const factor = await enrolTotp(person.client);
    const code = await unusedTotpCode(factor.totp.secret);
    const challenge = await person.client.auth.mfa.challenge({ factorId: factor.id });
    expect(challenge.data?.expires_at).toBeGreaterThan(Date.now() / 1000 + 250);
    const challengeId = challenge.data?.id ?? '';
    expect(
      (await person.client.auth.mfa.verify({ factorId: factor.id, challengeId, code })).error,
    ).toBeNull();
    const reused = await person.client.auth.mfa.verify({ factorId: factor.id, challengeId, code });
    expect(reused.error).toMatchObject({ status: 422, code: 'mfa_ip_address_mismatch' });

    const late = await person.client.auth.mfa.challenge({ factorId: factor.id });
    await pool.query(
      `update auth.mfa_challenges set created_at = now() - interval '301 seconds' where id = $1`,
      [late.data?.id],
    );
    const expired = await person.client.auth.mfa.verify({
      factorId: factor.id,
      challengeId: late.data?.id ?? '',
      code,
    });
    expect(expired.error).toMatchObject({ status: 422, code: 'mfa_challenge_expired' });

    const empty = await person.client.auth.mfa.verify({ factorId: factor.id, challengeId, code: '' });
    expect(empty.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Code needs to be non-empty',
    });
  });

  it("ends the person's other sessions that are still at aal1", async () => {
    const person = await signUpNewPerson();
    const elsewhere = await signIn(person.email, person.password);
    const factor = await enrolTotp(person.client);
    await person.client.auth.mfa.challengeAndVerify({
      factorId: factor.id,
      code: await unusedTotpCode(factor.totp.secret),
    });
    const { error } = await elsewhere.client.auth.refreshSession();
    expect(error).toMatchObject({ code: 'refresh_token_not_found' });
  });

  it("does not let anyone challenge or remove another person's factor", async () => {
    const owner = await signUpPersonWithTotp();
    const stranger = await signUpNewPerson();
    const challenge = await stranger.client.auth.mfa.challenge({ factorId: owner.factorId });
    expect(challenge.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    const removal = await stranger.client.auth.mfa.unenroll({ factorId: owner.factorId });
    expect(removal.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
  });
});

describe('removing a factor', () => {
  it('is refused at aal1 for a verified factor, and allowed at aal2, which drops the session to aal1', async () => {
    const person = await signUpPersonWithTotp();
    const atAal1 = await signIn(person.email, person.password);
    const refused = await atAal1.client.auth.mfa.unenroll({ factorId: person.factorId });
    expect(refused.error).toMatchObject({
      status: 422,
      code: 'insufficient_aal',
      message: 'AAL2 required to unenroll verified factor',
    });

    const removed = await person.client.auth.mfa.unenroll({ factorId: person.factorId });
    expect(removed.error).toBeNull();
    expect(removed.data).toEqual({ id: person.factorId });
    await person.client.auth.refreshSession();
    const claims = await claimsOf(person.client);
    expect(claims.aal).toBe('aal1');
    expect(claims.amr.map((entry) => entry.method)).toEqual(['password']);
    expect((await person.client.auth.mfa.listFactors()).data?.all).toEqual([]);
  });

  it('an unverified factor can be removed at aal1', async () => {
    const person = await signUpNewPerson();
    const factor = await enrolTotp(person.client);
    expect((await person.client.auth.mfa.unenroll({ factorId: factor.id })).error).toBeNull();
  });
});

describe('the factors in the database', () => {
  it('are kept in auth.mfa_factors and auth.mfa_challenges, as on Supabase, and go with the user', async () => {
    const person = await signUpPersonWithTotp();
    const { rows } = await pool.query(
      `select f.factor_type::text, f.status::text, count(c.id)::int as challenges
       from auth.mfa_factors f left join auth.mfa_challenges c on c.factor_id = f.id
       where f.user_id = $1 group by 1, 2`,
      [person.id],
    );
    expect(rows).toEqual([{ factor_type: 'totp', status: 'verified', challenges: 1 }]);
    const admin = apiClient(inject('serviceRoleKey'));
    await admin.auth.admin.deleteUser(person.id);
    const after = await pool.query('select count(*)::int as count from auth.mfa_factors where user_id = $1', [
      person.id,
    ]);
    expect(after.rows).toEqual([{ count: 0 }]);
  });
});
