import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { createNodeClient } from '../../support/node-client';
import { signInWithTotp } from '../../support/two-factor-sign-in';
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
  const apiUrl = process.env.API_URL;
  if (!apiUrl)
    throw new Error('API_URL is not set: run the browser tests through the Playwright global setup');
  return createNodeClient(apiUrl, localDefaults.anonKey);
}

/** The worker's admin at aal2 (admins work only there): the password, then a code from its secret. */
export async function signInAdmin(): Promise<SupabaseClient<Database>> {
  const admin = apiClient();
  await signInWithTotp(admin, workerAdmin());
  return admin;
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

let secondAdmin: Promise<SupabaseClient<Database>> | undefined;

/** The worker's second admin at aal2, signed in once per worker: the four-eyes rule's other pair of eyes. */
export function signInSecondAdmin(): Promise<SupabaseClient<Database>> {
  secondAdmin ??= (async () => {
    const client = apiClient();
    await signInWithTotp(client, workerSecondAdmin());
    return client;
  })();
  return secondAdmin;
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
  const confirmed = await setTransactionStatus(await signInSecondAdmin(), transactionId, 'complete');
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
