import type { IncomingMessage } from 'node:http';
import type { JWTPayload } from 'jose';
import { bearerToken } from '../http';
import { adminRoles, verifiedClaims, type AuthContext } from './context';
import { authErrors } from './errors';

const nilUuid = '00000000-0000-0000-0000-000000000000';

/**
 * GoTrue's `requireAdminCredentials` (api/middleware.go), in front of the admin API and `/invite`: a
 * bearer token signed for an admin role; one naming a session must name a live one.
 */
export function createRequireAdmin(context: AuthContext) {
  return async function requireAdmin(request: IncomingMessage): Promise<JWTPayload> {
    const token = bearerToken(request);
    if (!token) throw authErrors.noAuthorization();
    // GoTrue's admin roles need not be API roles (supabase_admin is not one).
    const claims = await verifiedClaims(context.jwt, token);
    const sessionId = typeof claims.session_id === 'string' ? claims.session_id : '';
    if (sessionId !== '' && sessionId !== nilUuid) await context.authenticated(request);
    const { role } = claims;
    if (typeof role !== 'string' || !adminRoles.has(role)) throw authErrors.notAdmin();
    return claims;
  };
}

export type RequireAdmin = ReturnType<typeof createRequireAdmin>;
