import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import type { Session, SupabaseClient } from '@supabase/supabase-js';
import { createNodeClient } from '../../support/node-client';
import { signInWithTotp, type TwoFactorAccount } from '../../support/two-factor-sign-in';
import { localDefaults } from '../../../devstack/src/config';
import type { Database } from '../../../src/types/database';
import {
  approveBuyRequest,
  createDeposit,
  idOf,
  recordCurrentPrices,
  requestBuy,
  setTransactionStatus,
} from '../../support/keyed-calls';
import { apiUrl, openWithSession } from './auth-people';
import { workerAdmin, workerSecondAdmin } from './worker-admin';

/**
 * People for the buy journey. The browser specs share one seeded stack, so each test signs up its own
 * buyer and funds it the way an admin does (a pending deposit, then `set_transaction_status` complete);
 * the worker's admin decides requests through supabase-js, as a second person working at the same time.
 */

export interface Buyer {
  id: string;
  fullName: string;
  email: string;
  password: string;
}

function apiClient(): SupabaseClient<Database> {
  return createNodeClient(apiUrl(), localDefaults.anonKey);
}

/** A signed-in admin client, with the session it was signed in with. */
interface SignedInAdmin {
  client: SupabaseClient<Database>;
  session: Session;
}

/** Signs in again when the session has less than this left (a worker can outlive an access token). */
const RENEW_BEFORE_EXPIRY_SECONDS = 300;

/**
 * One aal2 session per worker and admin, signed in on first use and shared by the worker's tests: a sign-in
 * (a password hash, then a code) is work a test has not come to test. Tests never sign it out; a code step
 * in a page does not end it (only sessions below aal2 are ended). Renewed shortly before it expires.
 */
function sharedSignIn(account: () => TwoFactorAccount) {
  let signedIn: Promise<SignedInAdmin> | undefined;
  return async (): Promise<SignedInAdmin> => {
    const current = await signedIn;
    if (current && (current.session.expires_at ?? 0) - Date.now() / 1000 > RENEW_BEFORE_EXPIRY_SECONDS)
      return current;
    signedIn = (async () => {
      const client = apiClient();
      return { client, session: await signInWithTotp(client, account()) };
    })();
    return signedIn;
  };
}

const workerAdminSignIn = sharedSignIn(() => workerAdmin());
const workerSecondAdminSignIn = sharedSignIn(() => workerSecondAdmin());

/** The worker's admin at aal2 (admins work only there), as a supabase-js client; see `sharedSignIn`. */
export async function workerAdminClient(): Promise<SupabaseClient<Database>> {
  return (await workerAdminSignIn()).client;
}

/** The worker's second admin at aal2: the four-eyes rule's other pair of eyes. */
export async function workerSecondAdminClient(): Promise<SupabaseClient<Database>> {
  return (await workerSecondAdminSignIn()).client;
}

/**
 * Opens `path` in `page` signed in as the worker's admin (or second admin), with the worker's shared session
 * placed where the app keeps its session, as a browser that signed in earlier has it; `landing` when the app
 * sends the admin on from `path` (see `openWithSession`). Once per call: a later navigation in the page (a
 * log-out, another person's log-in) is not undone. A test about signing in, or one that logs the admin
 * out (the app's log-out ends every session of the person), uses `logIn`.
 */
export function openAsWorkerAdmin(page: Page, path = '/admin/users', landing?: RegExp): Promise<void> {
  return openAsSharedAdmin(page, path, workerAdminSignIn, landing);
}

/** Opens `path` in `page` signed in as the worker's second admin (see `openAsWorkerAdmin`). */
export function openAsWorkerSecondAdmin(page: Page, path = '/admin/users'): Promise<void> {
  return openAsSharedAdmin(page, path, workerSecondAdminSignIn);
}

async function openAsSharedAdmin(
  page: Page,
  path: string,
  signIn: () => Promise<SignedInAdmin>,
  landing?: RegExp,
): Promise<void> {
  await openWithSession(page, (await signIn()).session, path, landing);
}

/** A new user whose ledger holds one completed deposit of `amount` USD. */
export async function signUpFundedBuyer(admin: SupabaseClient<Database>, amount: number): Promise<Buyer> {
  const tag = randomUUID();
  const email = `buyer-${tag}@example.com`;
  const password = 'buyer-pass-123';
  // A name of one's own, so the admin's queue tells this buyer's requests apart from earlier tests'.
  const fullName = `Buyer ${tag.slice(0, 8)}`;
  const { data, error } = await apiClient().auth.signUp({
    email,
    password,
    options: { data: { full_name: fullName } },
  });
  if (error) throw error;
  if (!data.user) throw new Error('Sign-up returned no user');

  await completeTransaction(admin, await createPendingDeposit(admin, data.user.id, amount));
  // Current prices on the server, as after anyone watched them: the admin's approvals fill at them.
  await recordCurrentPrices(admin);
  return { id: data.user.id, fullName, email, password };
}

/** An admin-created deposit: it starts pending and does not count towards the balance yet. */
export async function createPendingDeposit(
  admin: SupabaseClient<Database>,
  userId: string,
  amount: number,
): Promise<string> {
  return idOf(createDeposit(admin, userId, amount));
}

/**
 * Completes a pending entry as an admin does; above the four-eyes threshold (1,000 USD) the first admin's
 * completion is a proposal, which the second admin confirms.
 */
export async function completeTransaction(admin: SupabaseClient<Database>, transactionId: string) {
  const { error } = await setTransactionStatus(admin, transactionId, 'complete');
  if (error) throw error;
  const { data, error: readError } = await admin
    .from('transactions_with_user')
    .select('proposed_by')
    .eq('id', transactionId)
    .single();
  if (readError) throw readError;
  if (data.proposed_by === null) return;
  const confirmed = await setTransactionStatus(await workerSecondAdminClient(), transactionId, 'complete');
  if (confirmed.error) throw confirmed.error;
}

/**
 * A new person who bought `spent` USD of Bitcoin out of a `deposit`, approved at the server's price, with
 * their own signed-in client (signed out by the caller); `buyRequestId` finds the quantity bought.
 */
export async function signUpBitcoinHolder(
  admin: SupabaseClient<Database>,
  deposit: number,
  spent: number,
): Promise<{ holder: Buyer; client: SupabaseClient<Database>; buyRequestId: string }> {
  const holder = await signUpFundedBuyer(admin, deposit);
  const client = apiClient();
  const { error } = await client.auth.signInWithPassword(holder);
  if (error) throw error;
  const buyRequestId = await idOf(requestBuy(client, 'bitcoin', spent));
  const approval = await approveBuyRequest(admin, buyRequestId);
  if (approval.error) throw approval.error;
  return { holder, client, buyRequestId };
}

export const userLanding = /\/user\/wallet$/;
export const adminLanding = /\/admin\/users$/;
