import { randomUUID } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import type { Session } from '@supabase/supabase-js';
import pg from 'pg';
import { createNodeClient } from '../../support/node-client';
import { localDefaults } from '../../../devstack/src/config';
import { signInWithTotp, unusedTotpCode } from '../../support/two-factor-sign-in';
import { fetchRetryingShed } from '../../support/retry-shed';

/**
 * People for the account and shell journeys. Every spec shares one seeded stack, so each test that
 * changes an account makes its own person; each worker's admin is only ever read.
 */

export interface Account {
  email: string;
  password: string;
  /** The secret of the account's TOTP factor, when it has one (the seeded admin's is in devstack/src/config). */
  totpSecret?: string;
}

export function apiUrl(): string {
  const url = process.env.API_URL;
  if (!url) throw new Error('API_URL is not set: run the browser tests through the Playwright global setup');
  return url;
}

function apiClient() {
  return createNodeClient(apiUrl(), localDefaults.anonKey);
}

export function newAccount(prefix: string): Account {
  return { email: `${prefix}-${randomUUID()}@example.com`, password: 'start-pass-123' };
}

/** Someone who signed up earlier (through Auth, as a visitor does). */
export async function existingUser(prefix: string): Promise<Account> {
  const account = newAccount(prefix);
  const { error } = await apiClient().auth.signUp({
    ...account,
    options: { data: { full_name: 'Account Tester' } },
  });
  if (error) throw error;
  return account;
}

/** Someone who signed up earlier and set up an authenticator app (a verified TOTP factor). */
export async function existingUserWithTotp(prefix: string): Promise<Account & { totpSecret: string }> {
  const account = newAccount(prefix);
  const client = apiClient();
  const signedUp = await client.auth.signUp({
    ...account,
    options: { data: { full_name: 'Account Tester' } },
  });
  if (signedUp.error) throw signedUp.error;
  const enrolled = await client.auth.mfa.enroll({ factorType: 'totp' });
  if (enrolled.error) throw enrolled.error;
  const verified = await client.auth.mfa.challengeAndVerify({
    factorId: enrolled.data.id,
    code: await unusedTotpCode(enrolled.data.totp.secret),
  });
  if (verified.error) throw verified.error;
  return { ...account, totpSecret: enrolled.data.totp.secret };
}

/** The wallet code the database gave this person, read as that person. */
export async function walletCodeOf(account: Account): Promise<string> {
  const client = apiClient();
  const { data, error } = await client.auth.signInWithPassword(account);
  if (error) throw error;
  const profile = await client.from('profiles').select('wallet_code').eq('id', data.user.id).single();
  if (profile.error) throw profile.error;
  return profile.data.wallet_code;
}

/** Whether Auth accepts these credentials right now. */
export async function credentialsWork(account: Account): Promise<boolean> {
  const { error } = await apiClient().auth.signInWithPassword(account);
  return error === null;
}

export interface MailMessage {
  to: string;
  subject: string;
  links: string[];
}

export async function mailTo(email: string): Promise<MailMessage[]> {
  const response = await fetchRetryingShed(`${apiUrl()}/mailbox?to=${encodeURIComponent(email)}`);
  return (await response.json()) as MailMessage[];
}

export async function fillLogin(page: Page, account: Account) {
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/**
 * Logs in through the log-in page; an account with a factor then gets the code step, answered with a code
 * computed from its secret, as the person's authenticator app would show it.
 */
export async function logIn(page: Page, account: Account, landing: RegExp = /\/user\/wallet$/) {
  await page.goto('/login');
  await fillLogin(page, account);
  if (account.totpSecret) await enterTotpCode(page, account.totpSecret);
  await expect(page).toHaveURL(landing);
}

/**
 * Opens `path` in `page` signed in as `account`: signed in from Node (the password, then a code for an
 * account with a factor) and the session placed where the app keeps it, as in a browser that logged in
 * earlier. For a test that is not about logging in: it starts at its page, without the log-in page's load,
 * form and toast. A test about logging in, or about what a log-in does, uses `logIn`.
 */
export async function openSignedIn(page: Page, account: Account, path = '/user/wallet'): Promise<void> {
  const client = apiClient();
  let session: Session;
  if (account.totpSecret) {
    session = await signInWithTotp(client, { ...account, totpSecret: account.totpSecret });
  } else {
    const { data, error } = await client.auth.signInWithPassword(account);
    if (error) throw error;
    session = data.session;
  }
  await openWithSession(page, session, path);
}

/**
 * Opens `path` in `page` with `session` placed in the app's local storage before the app's code runs, and
 * waits until the page is at `landing` (`path` itself unless the app sends this session on, as from
 * `/login`: the app may have moved on before the first look). Once per call: a later navigation in the
 * page (a log-out, another person's log-in) is not undone.
 */
export async function openWithSession(
  page: Page,
  session: Session,
  path: string,
  landing?: RegExp,
): Promise<void> {
  await page.addInitScript(
    ({ key, value, once }) => {
      if (sessionStorage.getItem(once) !== null) return;
      sessionStorage.setItem(once, 'placed');
      localStorage.setItem(key, value);
    },
    { key: appSessionKey(), value: JSON.stringify(session), once: `placed-session-${randomUUID()}` },
  );
  await page.goto(path);
  await expect(page).toHaveURL(landing ?? ((url) => url.pathname === new URL(path, url).pathname));
}

/** The local storage key supabase-js keeps the app's session under: `sb-` and the API host's first label. */
function appSessionKey(): string {
  return `sb-${new URL(apiUrl()).hostname.split('.')[0]}-auth-token`;
}

/** Answers a code step (at log-in, in the admin area, before a withdrawal) with the current code. */
export async function enterTotpCode(page: Page, totpSecret: string) {
  await page.getByLabel('Authentication code').fill(await unusedTotpCode(totpSecret));
  await page.getByRole('button', { name: 'Verify' }).click();
}

/** A toast, found by its text in sonner's live region. */
export function toast(page: Page, text: string | RegExp) {
  return page.locator('[data-sonner-toast]').filter({ hasText: text });
}

/** Runs `work` on the test stack's database as its operator. */
export async function withDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** How many Auth sessions of this person are alive in the database (what GoTrue could still refresh). */
export function liveSessionsOf(email: string): Promise<number> {
  return withDatabase(async (client) => {
    const { rows } = await client.query<{ count: number }>(
      `select count(*)::int as count from auth.sessions s join auth.users u on u.id = s.user_id
       where u.email = lower($1)`,
      [email],
    );
    return rows[0]?.count ?? 0;
  });
}

/** Makes an existing person an admin, as a database operator does (they have no factor yet). */
export async function makeAdmin(account: Account): Promise<void> {
  await withDatabase((client) =>
    client.query(`update public.profiles set role = 'admin' where email = lower($1)`, [account.email]),
  );
}
