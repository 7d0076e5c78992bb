import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../../supabase/types/database';

/**
 * The money-moving RPCs as the app calls them: each call carries a fresh idempotency key, as one form
 * submission does (the database refuses them without one). Each answers supabase-js's response, so a
 * test can assert a refusal as well as use the row.
 */

type Client = SupabaseClient<Database>;

/** A pending buy request, sent as the buy page sends it. */
export function requestBuy(person: Client, cryptocurrency: string, amount: number) {
  return person.rpc('create_buy_request', { cryptocurrency, amount, idempotency_key: randomUUID() }).single();
}

/** An admin's pending deposit for a person, sent as the admin's deposit form sends it. */
export function createDeposit(admin: Client, userId: string, amount: number) {
  return admin.rpc('create_deposit', { user_id: userId, amount, idempotency_key: randomUUID() }).single();
}

/**
 * A failed function call as an error naming the function and its answer (status and body): supabase-js's
 * FunctionsHttpError says only "non-2xx", which leaves a failed test run without its cause.
 */
export async function functionCallError(name: string, error: Error): Promise<Error> {
  const answer = (error as Error & { context?: unknown }).context;
  if (!(answer instanceof Response)) return error;
  const body = await answer.text().catch(() => '');
  return new Error(`Function ${name} answered ${answer.status}: ${body.slice(0, 500)}`, { cause: error });
}

/**
 * Asks the market function for the app's prices, as any page showing them does: it records them (at most
 * once a minute), so the server has a current price to fill approvals at.
 */
export async function recordCurrentPrices(client: Client) {
  const { error } = await client.functions.invoke('market/coins/markets?vs_currency=usd&per_page=10', {
    method: 'GET',
  });
  if (error) throw await functionCallError('market', error);
}

/** An approval as the admin's Apply sends it, after prices were fetched (as the admin's pages do). */
export async function approveBuyRequest(admin: Client, requestId: string) {
  await recordCurrentPrices(admin);
  return admin.rpc('approve_buy_request', { request_id: requestId, idempotency_key: randomUUID() });
}

export function rejectBuyRequest(admin: Client, requestId: string) {
  return admin.rpc('reject_buy_request', { request_id: requestId, idempotency_key: randomUUID() });
}

export function setWithdrawRequestStatus(admin: Client, requestId: string, newStatus: string) {
  return admin.rpc('set_withdraw_request_status', {
    request_id: requestId,
    new_status: newStatus,
    idempotency_key: randomUUID(),
  });
}

export function setTransactionStatus(admin: Client, transactionId: string, newStatus: string) {
  return admin.rpc('set_transaction_status', {
    transaction_id: transactionId,
    new_status: newStatus,
    idempotency_key: randomUUID(),
  });
}

/** The id of the row a call answered, or the call's error thrown. */
export async function idOf(
  call: PromiseLike<{ data: { id: string } | null; error: unknown }>,
): Promise<string> {
  const { data, error } = await call;
  if (error) throw error;
  if (!data) throw new Error('The call answered no row');
  return data.id;
}
