import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { GatewayOptions } from '../../devstack/src/gateway/server';
import { inject } from 'vitest';
import { createNodeClient } from './node-client';
import { unusedTotpCode } from './two-factor-sign-in';
import { seededAccounts } from '../../supabase/seed-accounts';

/**
 * supabase-js clients against the test stack's gateway, exactly as the app makes them (no session
 * persistence between clients, so each one is one person).
 */

export function apiClient(key = inject('anonKey'), apiUrl = inject('apiUrl')) {
  return createNodeClient(apiUrl, key);
}

export type ApiClient = ReturnType<typeof apiClient>;

export function serviceClient(): ApiClient {
  return apiClient(inject('serviceRoleKey'));
}

export interface Person {
  client: ApiClient;
  id: string;
  email: string;
  password: string;
  accessToken: string;
}

export async function signIn(email: string, password: string): Promise<Person> {
  const client = apiClient();
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return { client, id: data.user.id, email, password, accessToken: data.session.access_token };
}

/** A new person, signed up through Auth as a visitor would (the profile comes from the database). */
export async function signUpNewPerson(fullName = 'Test Person'): Promise<Person> {
  const email = `person-${randomUUID()}@example.com`;
  const password = `pass-${randomUUID()}`;
  const client = apiClient();
  const { data, error } = await client.auth.signUp({
    email,
    password,
    options: { data: { full_name: fullName } },
  });
  if (error) throw error;
  if (!data.user || !data.session) throw new Error('sign-up returned no session');
  return { client, id: data.user.id, email, password, accessToken: data.session.access_token };
}

export interface TwoFactorPerson extends Person {
  factorId: string;
  totpSecret: string;
}

/**
 * A new person who enrolled a TOTP factor through Auth and verified it, as the account page does: their
 * client (and `accessToken`) now at aal2.
 */
export async function signUpPersonWithTotp(fullName?: string): Promise<TwoFactorPerson> {
  const person = await signUpNewPerson(fullName);
  const enrolled = await person.client.auth.mfa.enroll({ factorType: 'totp' });
  if (enrolled.error) throw enrolled.error;
  const verified = await person.client.auth.mfa.challengeAndVerify({
    factorId: enrolled.data.id,
    code: await unusedTotpCode(enrolled.data.totp.secret),
  });
  if (verified.error) throw verified.error;
  return {
    ...person,
    accessToken: verified.data.access_token,
    factorId: enrolled.data.id,
    totpSecret: enrolled.data.totp.secret,
  };
}

/**
 * Ends a person's withdrawal hold the one way the product allows: an admin at aal2 ends it early (audited),
 * as after a person who just set up two-factor authentication asks support.
 */
export async function endSecurityHoldByAdmin(userId: string): Promise<void> {
  const admin = await signInAdmin();
  const { error } = await admin.client.rpc('end_security_hold', { user_id: userId });
  if (error) throw error;
}

/**
 * The seeded admin at aal2 (admins work only there): the session the global setup signed in with the
 * password and a code (tests/setup/global-stack.ts), in a client of the caller's own. Never signed out.
 */
export async function signInAdmin(): Promise<Person> {
  const client = apiClient();
  const { accessToken, refreshToken } = inject('adminSession');
  const { data, error } = await client.auth.setSession({
    access_token: accessToken,
    refresh_token: refreshToken,
  });
  if (error) throw error;
  const session = data.session;
  if (!session) throw new Error('The seeded admin has no session');
  await client.realtime.setAuth(session.access_token);
  return {
    client,
    id: session.user.id,
    email: seededAccounts.admin.email,
    password: seededAccounts.admin.password,
    accessToken: session.access_token,
  };
}

/** The seeded admin after the password only (aal1): every admin read and write must refuse them. */
export function signInAdminWithPasswordOnly(): Promise<Person> {
  return signIn(seededAccounts.admin.email, seededAccounts.admin.password);
}

export function signInSeededUser(): Promise<Person> {
  return signIn(seededAccounts.user.email, seededAccounts.user.password);
}

/** A raw HTTP call to the gateway, for what supabase-js cannot send (bad JSON, forged tokens). */
/** Options for one more gateway over the test database (its own settings, limits and mailbox). */
export function testGatewayOptions(overrides: Partial<GatewayOptions> = {}): GatewayOptions {
  return {
    databaseUrl: inject('databaseUrl'),
    jwtSecret: inject('jwtSecret'),
    anonKey: inject('anonKey'),
    serviceRoleKey: inject('serviceRoleKey'),
    ...overrides,
  };
}

/** A token signed with the project's secret, carrying whatever claims an attacker chose. */
export function forgedToken(claims: Record<string, unknown>) {
  return new SignJWT({ role: 'authenticated', aud: 'authenticated', ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(inject('jwtSecret')));
}

export function callApi(path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  return fetch(`${inject('apiUrl')}${path}`, {
    ...init,
    headers: { apikey: inject('anonKey'), ...init.headers },
  });
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
}

export async function mailTo(email: string): Promise<MailMessage[]> {
  const response = await fetch(`${inject('apiUrl')}/mailbox?to=${encodeURIComponent(email)}`);
  return (await response.json()) as MailMessage[];
}

/**
 * A raw POST to Auth as supabase-js makes it (API version 2024-01-01), for answers supabase-js would
 * reshape and for headers it cannot send; `apiUrl` picks the gateway.
 */
export async function postAuth(
  apiUrl: string,
  path: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${apiUrl}/auth/v1${path}`, {
    method: 'POST',
    headers: {
      apikey: inject('anonKey'),
      'content-type': 'application/json',
      'x-supabase-api-version': '2024-01-01',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The schedule's call of send-security-emails (service role): the outbox goes out to the local mailbox. */
export function sendSecurityEmails() {
  return callApi('/functions/v1/send-security-emails', {
    method: 'POST',
    headers: { Authorization: `Bearer ${inject('serviceRoleKey')}`, 'Content-Type': 'application/json' },
    body: '{}',
  });
}
