import type { RequireAdmin } from './admin-credentials';
import { uuidPattern, type AuthContext } from './context';
import { AuthError } from './errors';
import { removeFactor } from './mfa-store';
import { readJsonObject, stringField } from './request-body';
import type { AuthRoute } from './route';
import { factorJson, type UserRow } from './user-json';

/** A user's factors in the admin API (api/admin.go `adminUserGetFactors`, `adminUserDeleteFactor`, …). */
export function adminFactorRoutes(
  context: AuthContext,
  { requireAdmin, loadUser }: { requireAdmin: RequireAdmin; loadUser: (userId: string) => Promise<UserRow> },
): AuthRoute[] {
  const { pool } = context;

  /** GoTrue's `loadFactor`: a UUID, of one of the user's factors. */
  async function loadFactor(userId: string, factorId: string) {
    const user = await loadUser(userId);
    if (!uuidPattern.test(factorId))
      throw new AuthError(404, 'validation_failed', 'factor_id must be an UUID');
    const { rows } = await pool.query<{ factor: object }>(
      `select ${factorJson('f')} as factor from auth.mfa_factors f where f.id = $1 and f.user_id = $2`,
      [factorId, user.id],
    );
    const factor = rows[0]?.factor;
    if (!factor) throw new AuthError(404, 'mfa_factor_not_found', 'Factor not found');
    return factor;
  }

  const user = (path: string) => new RegExp(`^/admin/users/([^/]+)${path}/?$`);

  return [
    {
      method: 'GET',
      path: user('/factors'),
      handle: async ({ request, params: [userId = ''] }) => {
        await requireAdmin(request);
        return (await loadUser(userId)).factors ?? [];
      },
    },
    {
      method: 'DELETE',
      path: user('/factors/([^/]+)'),
      // The sessions the factor raised drop to aal1 (models/factor.go `DowngradeSessionsToAAL1`).
      handle: async ({ request, params: [userId = '', factorId = ''] }) => {
        await requireAdmin(request);
        const factor = await loadFactor(userId, factorId);
        await removeFactor(pool, factorId);
        return factor;
      },
    },
    {
      method: 'PUT',
      path: user('/factors/([^/]+)'),
      handle: async ({ request, params: [userId = '', factorId = ''] }) => {
        await requireAdmin(request);
        await loadFactor(userId, factorId);
        const friendlyName = stringField(await readJsonObject(request), 'friendly_name') ?? '';
        if (friendlyName !== '')
          await pool.query(
            'update auth.mfa_factors set friendly_name = $2, updated_at = now() where id = $1',
            [factorId, friendlyName],
          );
        return loadFactor(userId, factorId);
      },
    },
  ];
}
