/**
 * POST /functions/v1/withdrawal-details — an admin reads one withdraw request's payment details
 * (docs/architecture.md §3). Body `{ requestId }`; answers `{ details }` and records the view in `audit_log`
 * before anything is returned, so no read goes unrecorded. Details decrypt only on the request, person and
 * method they were sealed for: a blob moved onto another request is refused (422) and the refusal is
 * audited too, since it means someone wrote the column. Rows sealed before that binding (no key version)
 * are read with the old additional data; there are none in a fresh database, see docs/deploying.md.
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
      .select('id, user_id, withdraw_method, encrypted_data, details_key_version')
      .eq('id', requestId)
      .maybeSingle();
    if (readError) throw readError;
    if (!withdrawRequest) throw new HttpError(404, 'Withdraw request not found');
    if (!withdrawRequest.encrypted_data) throw new HttpError(404, 'No encrypted data available');

    const audit = async (action: string) => {
      const { error } = await admin.from('audit_log').insert({
        actor_id: caller.id,
        action,
        target_table: 'withdraw_requests',
        target_id: withdrawRequest.id,
        details: { withdraw_method: withdrawRequest.withdraw_method, user_id: withdrawRequest.user_id },
      });
      if (error) throw error;
    };

    const keyVersion: number | null = withdrawRequest.details_key_version;
    let details: Record<string, string>;
    try {
      details = await decryptWithdrawalDetails(
        withdrawRequest.encrypted_data,
        await importMasterKey(masterKeySecret()),
        keyVersion === null
          ? null
          : {
              requestId: withdrawRequest.id,
              userId: withdrawRequest.user_id,
              method: withdrawRequest.withdraw_method,
              keyVersion,
            },
      );
    } catch (error) {
      if (error instanceof WithdrawalDecryptionError) {
        await audit('withdraw_request.details_refused');
        throw new HttpError(422, 'Unable to decrypt data');
      }
      throw error;
    }

    await audit('withdraw_request.view_details');
    return jsonResponse(200, { details });
  }),
);
