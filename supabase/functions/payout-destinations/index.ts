/**
 * POST /functions/v1/payout-destinations — saves a payout destination to the signed-in person's address book
 * (docs/architecture.md, "Protections a person controls"). Body `{ label, withdrawMethod, details }`, one of
 * the three methods, validated with the domain's schema (a card without CVV and PIN: never stored). The id is
 * chosen here, so the details are sealed for this destination and person, as a withdrawal's are for its
 * request; `create_payout_destination` (service role only) checks the person's live session (aal2 with a
 * factor), refuses the same details twice, sets when the destination becomes usable and queues the e-mail with
 * its one-click cancel link. Answers 201 `{ id }`.
 */
import {
  encryptWithdrawalDetails,
  importMasterKey,
  withdrawalDetailsDigest,
  withdrawalKeyVersion,
} from '../_shared/withdrawal-crypto.ts';
import {
  hasVerifiedFactor,
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
import { lastFourCharacters, payoutDestinationSchema } from '@domain/withdrawal.ts';

/** A destination's form is well under 2 KB, as a withdrawal's. */
const bodyLimitBytes = 16 * 1024;

Deno.serve(
  serveJson('Failed to save the destination', async (request) => {
    const user = await requireUser(request);
    if (hasVerifiedFactor(user)) {
      requireAal2(request, 'Enter a code from your authenticator app to change your address book');
    }
    const destination = parseBody(payoutDestinationSchema, await readJsonBody(request, bodyLimitBytes));
    const destinationId = crypto.randomUUID();
    const secret = masterKeySecret();
    const details: Record<string, string> = destination.details;
    const encryptedData = await encryptWithdrawalDetails(details, await importMasterKey(secret), {
      destinationId,
      userId: user.id,
      method: destination.withdrawMethod,
      keyVersion: withdrawalKeyVersion,
    });
    const { data: id, error } = await serviceClient().rpc('create_payout_destination', {
      destination_id: destinationId,
      user_id: user.id,
      session_id: sessionId(request),
      label: destination.label,
      withdraw_method: destination.withdrawMethod,
      last4: lastFourCharacters(destination),
      encrypted_data: encryptedData,
      details_key_version: withdrawalKeyVersion,
      details_digest: await withdrawalDetailsDigest(details, secret),
    });
    throwIfFailed(error);
    return jsonResponse(201, { id });
  }),
);
