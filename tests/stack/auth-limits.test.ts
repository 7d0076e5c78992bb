import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startGateway, type GatewayOptions, type RunningGateway } from '../../devstack/src/gateway/server';
import { postAuth, signUpNewPerson } from '../support/api';

/**
 * Two more gateways over the test database with tight limits: `proxied` trusts the client address in
 * `X-Real-IP` (GOTRUE_RATE_LIMIT_HEADER), so each test counts under addresses of its own; `direct` is
 * told of no header and counts the connection's address.
 */
let proxied: RunningGateway;
let direct: RunningGateway;

function gatewayOptions(overrides: Partial<GatewayOptions>): GatewayOptions {
  return {
    databaseUrl: inject('databaseUrl'),
    jwtSecret: inject('jwtSecret'),
    anonKey: inject('anonKey'),
    serviceRoleKey: inject('serviceRoleKey'),
    ...overrides,
  };
}

beforeAll(async () => {
  process.env.GOTRUE_RATE_LIMIT_HEADER = 'X-Real-IP';
  try {
    proxied = await startGateway(
      gatewayOptions({
        rateLimits: {
          signInSignUps: { limit: 2, windowMs: 60_000 },
          tokenRefresh: { limit: 3, windowMs: 60_000 },
          emailSent: { limit: 3, windowMs: 60 * 60_000 },
        },
        refreshTokenReuseIntervalSeconds: 0,
      }),
    );
  } finally {
    delete process.env.GOTRUE_RATE_LIMIT_HEADER;
  }
  direct = await startGateway(
    gatewayOptions({
      rateLimits: { tokenRefresh: { limit: 3, windowMs: 60_000 } },
      project: { emailMaxFrequencySeconds: 60 },
    }),
  );
});
afterAll(async () => {
  await Promise.all([proxied.stop(), direct.stop()]);
});

function newAddress() {
  return `203.0.113.${Math.floor(Math.random() * 250) + 1}-${randomUUID()}`;
}

function auth(
  gateway: RunningGateway,
  path: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return postAuth(gateway.url, path, body, headers);
}

const rateLimited = { code: 'over_request_rate_limit', message: 'Request rate limit reached' };

describe('rate limits as GoTrue buckets them (api/options.go)', () => {
  it('counts every /token grant of one client address in the token_refresh bucket', async () => {
    const address = { 'X-Real-IP': newAddress() };
    const password = { email: `nobody-${randomUUID()}@example.com`, password: 'wrong-pass' };
    const answers = [
      await auth(proxied, '/token?grant_type=password', password, address),
      await auth(proxied, '/token?grant_type=refresh_token', { refresh_token: 'not-a-token' }, address),
      await auth(proxied, '/token?grant_type=pkce', { auth_code: randomUUID(), code_verifier: 'x' }, address),
      await auth(proxied, '/token?grant_type=password', password, address),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 404, 429]);
    expect(answers[3]?.body).toEqual(rateLimited);
  });

  it('locks no e-mail: wrong guesses from one address leave the owner free to sign in from another', async () => {
    const person = await signUpNewPerson();
    const attacker = { 'X-Real-IP': newAddress() };
    const guesses = [];
    for (let i = 0; i < 4; i++) {
      guesses.push(
        await auth(
          proxied,
          '/token?grant_type=password',
          { email: person.email, password: `guess-${i}` },
          attacker,
        ),
      );
    }
    expect(guesses.map((guess) => guess.status)).toEqual([400, 400, 400, 429]);
    const owner = await auth(
      proxied,
      '/token?grant_type=password',
      { email: person.email, password: person.password },
      { 'X-Real-IP': newAddress() },
    );
    expect(owner.status).toBe(200);
    expect(owner.body).toHaveProperty('access_token');
  });

  it('trusts no X-Forwarded-For unless GOTRUE_RATE_LIMIT_HEADER names it: rotating it escapes nothing', async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) {
      answers.push(
        await auth(
          direct,
          '/token?grant_type=password',
          { email: `nobody-${randomUUID()}@example.com`, password: 'wrong-pass' },
          { 'X-Forwarded-For': `198.51.100.${i + 1}`, 'X-Real-IP': `198.51.100.${i + 1}` },
        ),
      );
    }
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400, 429]);
    expect(answers[3]?.body).toEqual(rateLimited);
  });

  it('counts sign-ups and recovery requests of one address in separate sign_in_sign_ups buckets', async () => {
    const address = { 'X-Real-IP': newAddress() };
    const signUps = [];
    for (let i = 0; i < 3; i++) {
      signUps.push(
        await auth(
          proxied,
          '/signup',
          { email: `bucket-${randomUUID()}@example.com`, password: 'long-enough-1' },
          address,
        ),
      );
    }
    expect(signUps.map((answer) => answer.status)).toEqual([200, 200, 429]);
    expect(signUps[2]?.body).toEqual(rateLimited);
    const recovery = await auth(
      proxied,
      '/recover',
      { email: `nobody-${randomUUID()}@example.com` },
      address,
    );
    expect(recovery).toEqual({ status: 200, body: {} });
  });

  it('limits e-mails for the whole project per hour (email_sent), whoever asks and for whomever', async () => {
    const people = await Promise.all([1, 2, 3, 4].map(() => signUpNewPerson()));
    const answers = [];
    for (const person of people) {
      answers.push(await auth(proxied, '/recover', { email: person.email }, { 'X-Real-IP': newAddress() }));
    }
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
    expect(answers[3]?.body).toEqual({
      code: 'over_email_send_rate_limit',
      message: 'Email rate limit exceeded',
    });
    expect(proxied.mailbox.list(people[3]?.email)).toEqual([]);
  });

  it('refuses a second recovery mail to one person within max_frequency with GoTrue’s message', async () => {
    const person = await signUpNewPerson();
    expect((await auth(direct, '/recover', { email: person.email })).status).toBe(200);
    const again = await auth(direct, '/recover', { email: person.email.toUpperCase() });
    expect(again.status).toBe(429);
    expect(again.body.code).toBe('over_email_send_rate_limit');
    expect(again.body.message).toMatch(
      /^For security purposes, you can only request this after (59|60) seconds\.$/,
    );
    expect(direct.mailbox.list(person.email)).toHaveLength(1);
  });
});

describe('refresh token reuse (GoTrue api/token_refresh.go), reuse interval 0', () => {
  function refresh(refreshToken: unknown, address: Record<string, string>) {
    return auth(proxied, '/token?grant_type=refresh_token', { refresh_token: refreshToken }, address);
  }

  it('gives the parent of the current refresh token the current one again, however late', async () => {
    const person = await signUpNewPerson();
    const first = (await person.client.auth.getSession()).data.session?.refresh_token ?? '';
    const address = { 'X-Real-IP': newAddress() };
    const rotated = await refresh(first, address);
    expect(rotated.status).toBe(200);
    const lostAnswer = await refresh(first, address);
    expect(lostAnswer.status).toBe(200);
    expect(lostAnswer.body.refresh_token).toBe(rotated.body.refresh_token);
  });

  it('treats an older token as theft: every token of the session revoked, its access token left to expire', async () => {
    const person = await signUpNewPerson();
    const stolen = (await person.client.auth.getSession()).data.session?.refresh_token ?? '';
    const address = { 'X-Real-IP': newAddress() };
    const second = await refresh(stolen, address);
    const third = await refresh(second.body.refresh_token, address);
    expect(third.status).toBe(200);

    const reuse = await refresh(stolen, address);
    expect(reuse).toEqual({
      status: 400,
      body: { code: 'refresh_token_already_used', message: 'Invalid Refresh Token: Already Used' },
    });
    const legitimate = await refresh(third.body.refresh_token, { 'X-Real-IP': newAddress() });
    expect(legitimate).toMatchObject({ status: 400, body: { code: 'refresh_token_already_used' } });
    const stillSignedIn = await fetch(`${proxied.url}/auth/v1/user`, {
      headers: { apikey: inject('anonKey'), Authorization: `Bearer ${String(third.body.access_token)}` },
    });
    expect(stillSignedIn.status).toBe(200);
  });
});
