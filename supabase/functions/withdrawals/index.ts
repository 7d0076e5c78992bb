/**
 * POST /functions/v1/withdrawals — a signed-in user's withdraw request (docs/architecture.md §3).
 * Body `{ amount, withdrawMethod, details }` (typed details) or `{ amount, destinationId }` (a saved destination
 * of the address book, whose sealed details are opened here and sealed again for the request), validated with
 * the browser's own schemas, and an
 * `Idempotency-Key` header (a uuid per form submission, sent again on a retry). A card's CVV and PIN are
 * validated (the specification's form asks for them) and then dropped: storing them is forbidden for
 * anyone who handles cards (PCI DSS 3.2/3.3), encrypted or not. The request id is chosen here, before the
 * details are encrypted, so they are sealed for that request, person and method; `create_withdraw_request`,
 * which only this function may call (service role), then checks the person's Auth session (its owner, expiry
 * and aal), the limits and the available balance under a lock.
 * A person with a verified second factor withdraws only from an aal2 session (403 `insufficient_aal`
 * otherwise; a trigger on withdraw_requests refuses the same in the database).
 * Answers 201 with the request (the first one again for a repeated key), never its encrypted data.
 *
 * A call that fails leaves nothing behind, and one whose answer was lost (worker killed, timeout) is safe
 * to repeat with its key: the database keeps the key in the same transaction as the request.
 */
import {
  decryptWithdrawalDetails,
  encryptWithdrawalDetails,
  importMasterKey,
  withdrawalDetailsDigest,
  withdrawalKeyVersion,
} from '../_shared/withdrawal-crypto.ts';
import {
  callerClient,
  hasVerifiedFactor,
  HttpError,
  idempotencyKey,
  jsonResponse,
  masterKeySecret,
  parseBody,
  readJsonBody,
  requireAal2,
  requireUser,
  serveJson,
  serviceClient,
  sessionId,
  throwIfFailed,
} from '../_shared/http.ts';
import {
  savedDestinationWithdrawalSchema,
  withdrawalRequest,
  type WithdrawalRequest,
} from '@domain/withdrawal.ts';

/** A filled-in form is well under 2 KB; 16 KB leaves room without letting anyone post megabytes. */
const bodyLimitBytes = 16 * 1024;

/** The details that are stored: everything but a card's CVV and PIN. */
function storedDetails({ withdrawMethod, details }: WithdrawalRequest): Record<string, string> {
  if (withdrawMethod !== 'card') return details;
  return { cardNumber: details.cardNumber, expirationDate: details.expirationDate };
}

/** A moment as the database's e-mails and refusals write it: 24 Nov 2026, 13:20 UTC. */
function formatUtc(moment: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'UTC',
  }).formatToParts(new Date(moment));
  const part = (type: string) => parts.find((item) => item.type === type)?.value ?? '';
  return `${part('day')} ${part('month')} ${part('year')}, ${part('hour')}:${part('minute')} UTC`;
}

interface Payout {
  amount: number;
  withdrawMethod: WithdrawalRequest['withdrawMethod'];
  details: Record<string, string>;
  destinationId: string | null;
}

/**
 * The address book's rules, checked here to answer first (a trigger on withdraw_requests and
 * create_withdraw_request hold them in the database): a saved destination is the person's own, not removed,
 * past its wait, and its sealed details are what is paid; typed details only while the allowlist is off.
 */
async function payoutOf(request: Request, userId: string, body: unknown, secret: string): Promise<Payout> {
  if (typeof body === 'object' && body !== null && 'destinationId' in body) {
    const { amount, destinationId } = parseBody(savedDestinationWithdrawalSchema, body);
    const { data: saved, error } = await serviceClient()
      .from('payout_destinations')
      .select('id, withdraw_method, encrypted_data, details_key_version, usable_at, removed_at')
      .eq('id', destinationId)
      .eq('user_id', userId)
      .maybeSingle();
    if (error) throw error;
    if (!saved || saved.removed_at) throw new HttpError(400, 'This destination is not in your address book');
    if (new Date(saved.usable_at) > new Date()) {
      throw new HttpError(400, `This destination can receive money from ${formatUtc(saved.usable_at)}`);
    }
    const details = await decryptWithdrawalDetails(saved.encrypted_data, await importMasterKey(secret), {
      destinationId: saved.id,
      userId,
      method: saved.withdraw_method,
      keyVersion: saved.details_key_version,
    }).catch(() => {
      throw new HttpError(422, 'The saved details of this destination do not decrypt; save it again');
    });
    return {
      amount,
      withdrawMethod: saved.withdraw_method,
      details,
      destinationId: saved.id,
    };
  }
  const typed = parseBody(withdrawalRequest, body);
  const { data: rules, error } = await callerClient(request).rpc('my_payout_rules').single();
  if (error) throw error;
  if (rules.allowlist_in_force) throw new HttpError(400, allowlistRefusal);
  return {
    amount: typed.amount,
    withdrawMethod: typed.withdrawMethod,
    details: storedDetails(typed),
    destinationId: null,
  };
}

/** The database's own words for the same rule (private.payout_destination_refusal). */
const allowlistRefusal =
  'Your address book allowlist is on: withdraw to a saved destination whose waiting period has ended';

Deno.serve(
  serveJson('Failed to submit withdraw request', async (request) => {
    const user = await requireUser(request);
    // Step-up: with a second factor enrolled, money leaves only from a session that verified it.
    if (hasVerifiedFactor(user)) requireAal2(request, 'Enter a code from your authenticator app to withdraw');
    const key = idempotencyKey(request);
    const secret = masterKeySecret();
    const { amount, withdrawMethod, details, destinationId } = await payoutOf(
      request,
      user.id,
      await readJsonBody(request, bodyLimitBytes),
      secret,
    );
    const requestId = crypto.randomUUID();
    const encryptedData = await encryptWithdrawalDetails(details, await importMasterKey(secret), {
      requestId,
      userId: user.id,
      method: withdrawMethod,
      keyVersion: withdrawalKeyVersion,
    });

    // Answers the created request's columns only (never encrypted_data).
    const { data: created, error } = await serviceClient()
      .rpc('create_withdraw_request', {
        request_id: requestId,
        user_id: user.id,
        session_id: sessionId(request),
        amount,
        withdraw_method: withdrawMethod,
        encrypted_data: encryptedData,
        details_key_version: withdrawalKeyVersion,
        details_digest: await withdrawalDetailsDigest(details, secret),
        idempotency_key: key,
        payout_destination_id: destinationId ?? undefined,
      })
      .single();
    // The database's own refusals (limits, insufficient balance, a reused key) carry the text to read.
    throwIfFailed(error);
    return jsonResponse(201, created);
  }),
);
