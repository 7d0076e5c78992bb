import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../devstack/src/gateway/server';
import { apiClient, signUpNewPerson, testGatewayOptions } from '../support/api';
import { connect } from '../support/db';

/**
 * `[auth.sessions] timebox` and `inactivity_timeout` as GoTrue applies them when a refresh token is used
 * (supabase/auth internal/models/sessions.go `CheckValidity`, internal/tokens/service.go): a gateway with a
 * one-hour time-box and a 30-minute inactivity time-out; the session's times are moved back in the database.
 */
let gateway: RunningGateway;
const db = connect(inject('databaseUrl'), 2);

beforeAll(async () => {
  gateway = await startGateway(
    testGatewayOptions({ project: { sessionTimeboxSeconds: 3600, sessionInactivityTimeoutSeconds: 1800 } }),
  );
});
afterAll(async () => {
  await Promise.all([gateway.stop(), db.end()]);
});

/** A person signed in through the gateway, their session started `startedAgo` and refreshed `refreshedAgo`. */
async function sessionAged(startedAgo: string, refreshedAgo: string) {
  const person = await signUpNewPerson();
  const client = apiClient(inject('anonKey'), gateway.url);
  const { data, error } = await client.auth.signInWithPassword({
    email: person.email,
    password: person.password,
  });
  if (error) throw error;
  await db.query(
    `update auth.sessions set created_at = now() - $2::interval, refreshed_at = now() - $3::interval
     where id = (select session_id from auth.refresh_tokens where token = $1)`,
    [data.session.refresh_token, startedAgo, refreshedAgo],
  );
  return client;
}

describe('session limits', () => {
  it('refreshes a session within its time-box that was active lately', async () => {
    const client = await sessionAged('50 minutes', '10 minutes');
    expect((await client.auth.refreshSession()).error).toBeNull();
  });

  it('ends a session past its time-box: 400 session_expired', async () => {
    const client = await sessionAged('61 minutes', '1 minute');
    const { error } = await client.auth.refreshSession();
    expect(error).toMatchObject({
      status: 400,
      code: 'session_expired',
      message: 'Invalid Refresh Token: Session Expired',
    });
  });

  it('ends a session idle longer than the inactivity time-out: 400 session_expired (Inactivity)', async () => {
    const client = await sessionAged('40 minutes', '31 minutes');
    const { error } = await client.auth.refreshSession();
    expect(error).toMatchObject({
      status: 400,
      code: 'session_expired',
      message: 'Invalid Refresh Token: Session Expired (Inactivity)',
    });
  });
});
