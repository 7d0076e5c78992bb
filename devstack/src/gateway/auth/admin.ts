import type { IncomingMessage } from 'node:http';
import { bearerToken } from '../http';
import { adminRoles, uuidPattern, type AuthContext } from './context';
import { authErrors } from './errors';
import { readJsonObject } from './request-body';
import type { AuthRoute } from './route';

/** GoTrue's admin API, as far as the stack serves it: deleting a user (api/admin.go). */
export function adminRoutes(context: AuthContext): AuthRoute[] {
  const { pool, jwt } = context;

  /** The caller's role, if their token is signed with the project's secret and names an admin role. */
  async function requireAdmin(request: IncomingMessage) {
    const token = bearerToken(request);
    let role: string | undefined;
    try {
      // GoTrue's admin roles need not be API roles (supabase_admin is not one).
      const claimed = token ? (await jwt.verifySignature(token)).role : undefined;
      role = typeof claimed === 'string' ? claimed : undefined;
    } catch {
      role = undefined;
    }
    if (!role || !adminRoles.has(role)) throw authErrors.notAdmin();
  }

  return [
    {
      method: 'DELETE',
      path: /^\/admin\/users\/([^/]+)$/,
      handle: async ({ request, params: [userId = ''] }) => {
        await requireAdmin(request);
        if (!uuidPattern.test(userId)) throw authErrors.validation('user_id must be a UUID');
        const body = await readJsonObject(request);
        if (body.should_soft_delete === true) {
          throw authErrors.validation(
            'should_soft_delete is not supported by the local stack: users are deleted',
          );
        }
        const { rowCount } = await pool.query('delete from auth.users where id = $1', [userId]);
        if (rowCount === 0) throw authErrors.userNotFound();
        return {};
      },
    },
  ];
}
