import { SignJWT } from 'jose';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi, signUpNewPerson, type Person } from '../support/api';

let person: Person;
beforeAll(async () => {
  person = await signUpNewPerson();
});

async function token(
  claims: Record<string, unknown>,
  { secret = inject('jwtSecret'), expiresIn = '1h' } = {},
) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(new TextEncoder().encode(secret));
}

function forgedClaims() {
  return { sub: person.id, role: 'authenticated', aud: 'authenticated', email: person.email };
}

describe('API keys', () => {
  const endpoints = ['/rest/v1/profiles?select=id', '/auth/v1/user'];

  it.each(endpoints)('refuses %s without an apikey with 401', async (path) => {
    const response = await fetch(`${inject('apiUrl')}${path}`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ message: 'No API key found in request' });
  });

  it.each(endpoints)('refuses %s with a made-up apikey with 401', async (path) => {
    const response = await callApi(path, { headers: { apikey: 'not-a-key' } });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ message: 'Invalid API key' });
  });

  it('refuses an apikey signed with another secret', async () => {
    const forgedKey = await token(
      { role: 'service_role' },
      { secret: 'another-secret-that-is-at-least-32-characters' },
    );
    const response = await callApi('/rest/v1/profiles?select=id', { headers: { apikey: forgedKey } });
    expect(response.status).toBe(401);
  });

  it('refuses a user JWT used as the apikey', async () => {
    const response = await callApi('/rest/v1/profiles?select=id', {
      headers: { apikey: person.accessToken },
    });
    expect(response.status).toBe(401);
  });
});

describe('user JWTs on REST', () => {
  const readOwnProfile = (bearer: string) =>
    callApi(`/rest/v1/profiles?select=id&id=eq.${person.id}`, {
      headers: { Authorization: `Bearer ${bearer}` },
    });

  it('reads with the genuine token', async () => {
    const response = await readOwnProfile(person.accessToken);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([{ id: person.id }]);
  });

  it('refuses a token signed with another secret, reading nothing', async () => {
    const forged = await token(forgedClaims(), { secret: 'another-secret-that-is-at-least-32-characters' });
    const response = await readOwnProfile(forged);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'PGRST301' });
  });

  it('refuses an expired token', async () => {
    const expired = await token(forgedClaims(), { expiresIn: '-1m' });
    const response = await readOwnProfile(expired);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'PGRST303', message: 'JWT expired' });
  });

  it('refuses a token whose role is not one of the API roles', async () => {
    const superuser = await token({ ...forgedClaims(), role: 'postgres' });
    const response = await readOwnProfile(superuser);
    expect(response.status).toBe(401);
  });

  it('refuses a token with its signature stripped (alg none)', async () => {
    const [header, payload] = person.accessToken.split('.');
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    expect(header).toBeTruthy();
    const response = await readOwnProfile(unsigned);
    expect(response.status).toBe(401);
  });
});
