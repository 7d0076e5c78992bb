import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { apiClient, mailTo, signIn, signUpNewPerson } from '../support/api';

const db = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
afterAll(() => db.end());

function claimsOf(accessToken: string): Record<string, unknown> {
  const [, payload] = accessToken.split('.');
  return JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

async function liveSessionCount(userId: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    'select count(*)::int as count from auth.sessions where user_id = $1',
    [userId],
  );
  return rows[0]?.count ?? 0;
}

describe('a password change (GoTrue models/user.go UpdatePassword)', () => {
  it('ends every other session of the person: their refresh tokens and access tokens stop working', async () => {
    const person = await signUpNewPerson();
    const laptop = await signIn(person.email, person.password);
    const laptopRefresh = (await laptop.client.auth.getSession()).data.session?.refresh_token ?? '';

    expect(
      (
        await person.client.auth.updateUser({
          password: 'changed-password-1',
          current_password: person.password,
        })
      ).error,
    ).toBeNull();

    const refreshed = await apiClient().auth.refreshSession({ refresh_token: laptopRefresh });
    expect(refreshed.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
    const read = await apiClient().auth.getUser(laptop.accessToken);
    expect(read.error?.name).toBe('AuthSessionMissingError');
    // The session that changed the password goes on.
    expect((await person.client.auth.getUser()).data.user?.id).toBe(person.id);
    expect((await person.client.auth.refreshSession()).error).toBeNull();
    expect(await liveSessionCount(person.id)).toBe(1);
  });

  it('invalidates a recovery link mailed before it', async () => {
    const person = await signUpNewPerson();
    expect((await apiClient().auth.resetPasswordForEmail(person.email)).error).toBeNull();
    const link = (await mailTo(person.email))[0]?.links[0] ?? '';

    expect(
      (
        await person.client.auth.updateUser({
          password: 'changed-password-2',
          current_password: person.password,
        })
      ).error,
    ).toBeNull();

    const followed = await fetch(link, { redirect: 'manual' });
    const fragment = new URLSearchParams(new URL(followed.headers.get('location') ?? '').hash.slice(1));
    expect(fragment.get('error_code')).toBe('otp_expired');
    expect(fragment.get('access_token')).toBeNull();
  });

  it('keeps the other sessions when only user metadata changes', async () => {
    const person = await signUpNewPerson();
    await signIn(person.email, person.password);
    expect((await person.client.auth.updateUser({ data: { nickname: 'Ada' } })).error).toBeNull();
    expect(await liveSessionCount(person.id)).toBe(2);
  });
});

describe('amr claims belong to the session', () => {
  it('keeps the method and time of the original sign-in across refreshes', async () => {
    const person = await signUpNewPerson();
    const signedIn = await signIn(person.email, person.password);
    const original = claimsOf(signedIn.accessToken).amr as Array<{ method: string; timestamp: number }>;
    expect(original).toEqual([{ method: 'password', timestamp: expect.any(Number) as number }]);

    await new Promise((resolve) => setTimeout(resolve, 1100));
    const { data, error } = await signedIn.client.auth.refreshSession();
    expect(error).toBeNull();
    const claims = claimsOf(data.session?.access_token ?? '');
    expect(claims.amr).toEqual(original);
    expect(claims.iat).toBeGreaterThan(original[0]?.timestamp ?? Infinity);
  });

  it('says a session started from a recovery link was started by that link, also after a refresh', async () => {
    const person = await signUpNewPerson();
    await apiClient().auth.resetPasswordForEmail(person.email);
    const link = (await mailTo(person.email))[0]?.links[0] ?? '';
    const followed = await fetch(link, { redirect: 'manual' });
    const fragment = new URLSearchParams(new URL(followed.headers.get('location') ?? '').hash.slice(1));
    const refreshed = await apiClient().auth.refreshSession({
      refresh_token: fragment.get('refresh_token') ?? '',
    });
    expect(claimsOf(refreshed.data.session?.access_token ?? '').amr).toEqual([
      { method: 'otp', timestamp: expect.any(Number) as number },
    ]);
  });
});
