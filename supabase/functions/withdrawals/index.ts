/**
 * POST /functions/v1/withdrawals — a signed-in user's withdraw request (docs/architecture.md §3).
 * Body `{ amount, withdrawMethod, details }`, validated with the browser's own schema, and an
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
  encryptWithdrawalDetails,
  importMasterKey,
  withdrawalDetailsDigest,
  withdrawalKeyVersion,
} from '../_shared/withdrawal-crypto.ts';
import {
  hasVerifiedFactor,
  HttpError,
  idempotencyKey,
  jsonResponse,
  masterKeySecret,
  readJsonBody,
  requireAal2,
  requireUser,
  serveJson,
  serviceClient,
  sessionId,
} from '../_shared/http.ts';
import { withdrawalRequest, type WithdrawalRequest } from '@domain/withdrawal.ts';

/** A filled-in form is well under 2 KB; 16 KB leaves room without letting anyone post megabytes. */
const bodyLimitBytes = 16 * 1024;

/** The details that are stored: everything but a card's CVV and PIN. */
function storedDetails({ withdrawMethod, details }: WithdrawalRequest): Record<string, string> {
  if (withdrawMethod !== 'card') return details;
  return { cardNumber: details.cardNumber, expirationDate: details.expirationDate };
}

Deno.serve(
  serveJson('Failed to submit withdraw request', async (request) => {
    const user = await requireUser(request);
    // Step-up: with a second factor enrolled, money leaves only from a session that verified it.
    if (hasVerifiedFactor(user)) requireAal2(request, 'Enter a code from your authenticator app to withdraw');
    const key = idempotencyKey(request);
    const parsed = withdrawalRequest.safeParse(await readJsonBody(request, bodyLimitBytes));
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({
        path: issue.path.join('.'),
        message: issue.message,
      }));
      throw new HttpError(400, issues[0]?.message ?? 'Invalid withdraw request', { issues });
    }
    const { amount, withdrawMethod } = parsed.data;
    const details = storedDetails(parsed.data);
    const requestId = crypto.randomUUID();
    const secret = masterKeySecret();
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
      })
      .single();
    // The database's own refusals (limits, insufficient balance, a reused key) carry the text to read.
    if (error?.code === 'P0001') throw new HttpError(400, error.message);
    if (error?.code === '42501') throw new HttpError(403, error.message);
    if (error) throw error;
    return jsonResponse(201, created);
  }),
);
