/**
 * POST /functions/v1/admin-delete-user — an admin deletes a person. Body `{ userId }`; answers `{ deleted }`.
 * `public.delete_user` deletes the account and writes the audit entry in one transaction.
 */
import {
  callerClient,
  jsonResponse,
  readJsonBody,
  requireAdmin,
  serveJson,
  throwIfFailed,
  uuidField,
} from '../_shared/http.ts';

const bodyLimitBytes = 1024;

Deno.serve(
  serveJson('Failed to delete user', async (request) => {
    await requireAdmin(request, 'Only admins can delete users');
    const userId = uuidField(
      await readJsonBody(request, bodyLimitBytes),
      'userId',
      'userId must be a user id',
    );
    // As the caller, so the database checks the admin itself and the audit log names them.
    const { data: deleted, error } = await callerClient(request).rpc('delete_user', { user_id: userId });
    throwIfFailed(error);
    return jsonResponse(200, { deleted });
  }),
);
