import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../devstack/gateway/server';
import { apiClient, signUpNewPerson } from '../support/api';

/** A second gateway over the same database with tight limits and no refresh-token grace period. */
let strict: RunningGateway;

beforeAll(async () => {
  strict = await startGateway({
    databaseUrl: inject('databaseUrl'),
    jwtSecret: inject('jwtSecret'),
    anonKey: inject('anonKey'),
    serviceRoleKey: inject('serviceRoleKey'),
    rateLimits: {
      signInSignUps: { limit: 3, windowMs: 60_000 },
      emailSent: { limit: 2, windowMs: 60_000 },
    },
    refreshTokenReuseIntervalSeconds: 0,
  });
});
afterAll(() => strict.stop());

function strictClient() {
  return apiClient(inject('anonKey'), strict.url);
}

describe('rate limits', () => {
  it('answers the fourth sign-in attempt for one address within the window with 429', async () => {
    const email = `limited-${Date.now()}@example.com`;
    const attempts = [];
    for (let i = 0; i < 4; i++)
      attempts.push(await strictClient().auth.signInWithPassword({ email, password: 'wrong-pass' }));
    expect(attempts.slice(0, 3).map((attempt) => attempt.error?.code)).toEqual([
      'invalid_credentials',
      'invalid_credentials',
      'invalid_credentials',
    ]);
    expect(attempts[3]?.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
  });

  it('answers the third recovery mail for one address within the window with 429', async () => {
    const person = await signUpNewPerson();
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await strictClient().auth.resetPasswordForEmail(person.email));
    expect(results[2]?.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    expect(strict.mailbox.list(person.email)).toHaveLength(2);
  });
});

describe('refresh token reuse', () => {
  it('treats a reused refresh token as theft: refused, and the whole session ends', async () => {
    // Signed up through the main gateway: both gateways share the database, and this one's sign-in limit is spent.
    const person = await signUpNewPerson();
    const stolen = (await person.client.auth.getSession()).data.session?.refresh_token ?? '';
    const rotated = await strictClient().auth.refreshSession({ refresh_token: stolen });
    expect(rotated.error).toBeNull();

    const reuse = await strictClient().auth.refreshSession({ refresh_token: stolen });
    expect(reuse.error).toMatchObject({ code: 'refresh_token_already_used', status: 400 });
    const legitimate = await strictClient().auth.refreshSession({
      refresh_token: rotated.data.session?.refresh_token ?? '',
    });
    expect(legitimate.error).toMatchObject({ code: 'refresh_token_not_found' });
  });
});
