import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { createNodeClient } from '../../support/node-client';
import { localDefaults } from '../../../devstack/src/config';
import type { Database } from '../../../src/types/database';
import { functionCallError, idOf, recordCurrentPrices, requestBuy } from '../../support/keyed-calls';
import { apiUrl } from './auth-people';
import { completeTransaction, createPendingDeposit } from './buy-people';

/**
 * People for the admin back office specs. The browser specs share one seeded stack, so each test makes
 * its own people with names no other test uses, and finds its rows by those names.
 */

export interface AdminTestPerson {
  id: string;
  fullName: string;
  email: string;
  password: string;
  /** The person's own supabase-js session, to act as they would from their browser. */
  client: SupabaseClient<Database>;
}

export function uniqueName(prefix: string): string {
  return `${prefix} ${randomUUID().slice(0, 8)}`;
}

/** A new user (signed up through Auth) holding `balance` USD from a completed admin deposit. */
export async function personWithBalance(
  admin: SupabaseClient<Database>,
  namePrefix: string,
  balance: number,
): Promise<AdminTestPerson> {
  const fullName = uniqueName(namePrefix);
  const email = `admin-spec-${randomUUID()}@example.com`;
  const password = 'admin-spec-pass-123';
  const client = createNodeClient(apiUrl(), localDefaults.anonKey);
  const { data, error } = await client.auth.signUp({
    email,
    password,
    options: { data: { full_name: fullName } },
  });
  if (error) throw error;
  if (!data.user) throw new Error('Sign-up returned no user');
  if (balance > 0) await completeTransaction(admin, await createPendingDeposit(admin, data.user.id, balance));
  // Current prices on the server, as after anyone watched them: the admin's approvals fill at them.
  await recordCurrentPrices(admin);
  return { id: data.user.id, fullName, email, password, client };
}

/** A pending buy request the person sends as the buy page does. */
export async function submitBuyRequest(person: AdminTestPerson, amount: number): Promise<string> {
  return idOf(requestBuy(person.client, 'bitcoin', amount));
}

/** A pending crypto-wallet withdrawal the person sends through the withdrawals function, as the form does. */
export async function submitWalletWithdrawal(person: AdminTestPerson, amount: number, walletAddress: string) {
  const { data, error } = await person.client.functions.invoke<{ id: string }>('withdrawals', {
    headers: { 'Idempotency-Key': randomUUID() },
    body: { amount, withdrawMethod: 'wallet', details: { cryptoType: 'ETH', walletAddress } },
  });
  if (error) throw await functionCallError('withdrawals', error);
  if (!data) throw new Error('The withdrawals function answered nothing');
  return data.id;
}
