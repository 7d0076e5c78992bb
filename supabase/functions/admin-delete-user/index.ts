/**
 * POST /functions/v1/admin-delete-user — an admin deletes a person (architecture §4). Body `{ userId }`.
 * Deleting the Auth user cascades through the foreign keys to the profile, transactions and requests;
 * the audit log keeps who was deleted, by whom, because the person's own rows are gone afterwards.
 */
import {
  HttpError,
  jsonResponse,
  readJsonBody,
  requireUser,
  serveJson,
  serviceClient,
} from '../_shared/withdrawal-http.ts';

const bodyLimitBytes = 1024;
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function userIdOf(body: unknown): string {
  const userId = (body as { userId?: unknown } | null)?.userId;
  if (typeof userId !== 'string' || !uuidPattern.test(userId))
    throw new HttpError(400, 'userId must be a user id');
  return userId;
}

Deno.serve(
  serveJson('Failed to delete user', async (request) => {
    const caller = await requireUser(request);
    const userId = userIdOf(await readJsonBody(request, bodyLimitBytes));
    const admin = serviceClient();

    const { data: callerProfile, error: callerError } = await admin
      .from('profiles')
      .select('role')
      .eq('id', caller.id)
      .maybeSingle();
    if (callerError) throw callerError;
    if (callerProfile?.role !== 'admin') throw new HttpError(403, 'Only admins can delete users');
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
