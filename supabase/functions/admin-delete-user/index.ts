/**
 * POST /functions/v1/admin-delete-user — an admin deletes a person (architecture §4). Body `{ userId }`.
 * Deleting the Auth user cascades through the foreign keys to the profile, transactions and requests;
 * the audit log keeps who was deleted, by whom, because the person's own rows are gone afterwards.
 */
import {
  HttpError,
  jsonResponse,
  readJsonBody,
  requireAdmin,
  serveJson,
  serviceClient,
  uuidField,
} from '../_shared/http.ts';

const bodyLimitBytes = 1024;

Deno.serve(
  serveJson('Failed to delete user', async (request) => {
    const caller = await requireAdmin(request, 'Only admins can delete users');
    const userId = uuidField(
      await readJsonBody(request, bodyLimitBytes),
      'userId',
      'userId must be a user id',
    );
    const admin = serviceClient();
    // An admin removing their own account would lock themselves out mid-session; another admin must do it.
    if (userId === caller.id) throw new HttpError(400, 'You cannot delete your own account');

    const { data: target, error: targetError } = await admin
      .from('profiles')
      .select('id, email, full_name, role')
      .eq('id', userId)
      .maybeSingle();
    if (targetError) throw targetError;
    if (!target) throw new HttpError(404, 'User not found');

    const { error: deleteError } = await admin.auth.admin.deleteUser(userId);
    if (deleteError) throw deleteError;

    const { error: auditError } = await admin.from('audit_log').insert({
      actor_id: caller.id,
      action: 'user.delete',
      target_table: 'profiles',
      target_id: target.id,
      details: { email: target.email, full_name: target.full_name, role: target.role },
    });
    if (auditError) throw auditError;
    return jsonResponse(200, { deleted: target.id });
  }),
);
