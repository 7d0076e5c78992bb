/**
 * POST /functions/v1/withdrawals — a signed-in user's withdraw request (architecture §4).
 * Body `{ amount, withdrawMethod, details }`, validated with the browser's own schema; the details are
 * encrypted here, so plaintext never reaches the database; `create_withdraw_request` then checks the limits
 * and the available balance under a lock. Answers 201 with the request, never its encrypted data.
 */
import { encryptWithdrawalDetails, importMasterKey } from '../_shared/withdrawal-crypto.ts';
import {
  HttpError,
  jsonResponse,
  masterKeySecret,
  readJsonBody,
  requireUser,
  serveJson,
  serviceClient,
} from '../_shared/http.ts';
import { withdrawalRequest } from '../_shared/withdrawal-schema.ts';

/** A filled-in form is well under 2 KB; 16 KB leaves room without letting anyone post megabytes. */
const bodyLimitBytes = 16 * 1024;

Deno.serve(
  serveJson('Failed to submit withdraw request', async (request) => {
    const user = await requireUser(request);
    const parsed = withdrawalRequest.safeParse(await readJsonBody(request, bodyLimitBytes));
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({
        path: issue.path.join('.'),
        message: issue.message,
      }));
      throw new HttpError(400, issues[0]?.message ?? 'Invalid withdraw request', { issues });
    }
    const { amount, withdrawMethod, details } = parsed.data;
    const encryptedData = await encryptWithdrawalDetails(details, await importMasterKey(masterKeySecret()));

    // Answers the created request's columns only (never encrypted_data).
    const { data: created, error } = await serviceClient()
      .rpc('create_withdraw_request', {
        p_user_id: user.id,
        p_amount: amount,
        p_method: withdrawMethod,
        p_encrypted_data: encryptedData,
      })
      .single();
    // The database's own refusals (limits, insufficient balance) carry the text the person should read.
    if (error?.code === 'P0001') throw new HttpError(400, error.message);
    if (error) throw error;
    return jsonResponse(201, created);
  }),
);
