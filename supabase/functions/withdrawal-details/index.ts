/**
 * POST /functions/v1/withdrawal-details — an admin reads one withdraw request's payment details
 * (architecture §4). Body `{ requestId }`; answers `{ details }` and records the view in `audit_log`
 * before anything is returned, so no read goes unrecorded.
 */
import {
  decryptWithdrawalDetails,
  importMasterKey,
  WithdrawalDecryptionError,
} from '../_shared/withdrawal-crypto.ts';
import {
  HttpError,
  jsonResponse,
  masterKeySecret,
  readJsonBody,
  requireAdmin,
  serveJson,
  serviceClient,
  uuidField,
} from '../_shared/http.ts';

const bodyLimitBytes = 1024;

Deno.serve(
  serveJson('Unable to decrypt data', async (request) => {
    const caller = await requireAdmin(request, 'Only admins may view withdrawal details');
    const requestId = uuidField(
      await readJsonBody(request, bodyLimitBytes),
      'requestId',
      'requestId must be a withdraw request id',
    );
    const admin = serviceClient();

    const { data: withdrawRequest, error: readError } = await admin
      .from('withdraw_requests')
      .select('id, withdraw_method, encrypted_data')
      .eq('id', requestId)
      .maybeSingle();
    if (readError) throw readError;
    if (!withdrawRequest) throw new HttpError(404, 'Withdraw request not found');
    if (!withdrawRequest.encrypted_data) throw new HttpError(404, 'No encrypted data available');

    let details: Record<string, string>;
    try {
      details = await decryptWithdrawalDetails(
        withdrawRequest.encrypted_data,
        await importMasterKey(masterKeySecret()),
      );
    } catch (error) {
      if (error instanceof WithdrawalDecryptionError) throw new HttpError(422, 'Unable to decrypt data');
      throw error;
    }

    const { error: auditError } = await admin.from('audit_log').insert({
      actor_id: caller.id,
      action: 'withdraw_request.view_details',
      target_table: 'withdraw_requests',
      target_id: withdrawRequest.id,
      details: { withdraw_method: withdrawRequest.withdraw_method },
    });
    if (auditError) throw auditError;
    return jsonResponse(200, { details });
  }),
);
