import type { IncomingMessage } from 'node:http';
import { bearerToken } from '../http';
import { adminRoles, uuidPattern, verifiedClaims, type AuthContext } from './context';
import { AuthError, authErrors } from './errors';
import { readJsonObject } from './request-body';
import type { AuthRoute } from './route';

/** GoTrue's admin API, as far as the stack serves it: deleting a user (api/admin.go). */
export function adminRoutes(context: AuthContext): AuthRoute[] {
  const { pool, jwt } = context;

  /** GoTrue's `requireAdminCredentials` (api/middleware.go): a bearer token signed for an admin role. */
  async function requireAdmin(request: IncomingMessage) {
    const token = bearerToken(request);
    if (!token) throw authErrors.noAuthorization();
    // GoTrue's admin roles need not be API roles (supabase_admin is not one).
    const { role } = await verifiedClaims(jwt, token);
    if (typeof role !== 'string' || !adminRoles.has(role)) throw authErrors.notAdmin();
  }

  return [
    {
      method: 'DELETE',
      path: /^\/admin\/users\/([^/]+)$/,
      handle: async ({ request, params: [userId = ''] }) => {
        await requireAdmin(request);
        if (!uuidPattern.test(userId))
          throw new AuthError(404, 'validation_failed', 'user_id must be an UUID');
        const body = await readJsonObject(request);
        if (body.should_soft_delete === true) {
          throw authErrors.validation(
            'should_soft_delete is not supported by the local stack: users are deleted',
          );
        }
        // GoTrue answers any database refusal (a trigger keeping the books) as its own 500 (api/admin.go).
        const { rowCount } = await pool.query('delete from auth.users where id = $1', [userId]).catch(() => {
          throw new AuthError(500, 'unexpected_failure', 'Database error deleting user');
        });
        if (rowCount === 0) throw authErrors.userNotFound();
        return {};
      },
    },
  ];
}
