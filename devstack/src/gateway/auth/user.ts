import { headerValue } from '../http';
import { adminRoles, validEmail, type AuthContext } from './context';
import { requestEmailChange } from './email-change';
import { apiVersionHeader, authErrors } from './errors';
import { codeChallengeOf } from './flow-state';
import { createPasswordChangeChecks } from './password-change';
import { notifyAccountChange } from './notifications';
import { objectField, readJsonObject, stringField } from './request-body';
import type { AuthRoute } from './route';
import { endSessions } from './sessions';
import { userJson } from './user-json';
import { findUserById, updateUser } from './users';

export type LogoutScope = 'global' | 'local' | 'others';

/** `?scope=` of POST /logout: GoTrue's three scopes, `global` when none is named (api/logout.go). */
export function logoutScopeOf(url: URL): LogoutScope {
  const scope = url.searchParams.get('scope') || 'global';
  if (scope !== 'global' && scope !== 'local' && scope !== 'others') {
    throw authErrors.validation(`Unsupported logout scope ${JSON.stringify(scope)}`);
  }
  return scope;
}

/** The signed-in person's own account: GET and PUT /user, POST /logout (api/user.go, api/logout.go). */
export function userRoutes(context: AuthContext): AuthRoute[] {
  const { pool } = context;
  const checkChange = createPasswordChangeChecks(context);

  return [
    {
      method: 'GET',
      path: '/user',
      // The token's audience must be the one asked for (`X-JWT-AUD`, else `authenticated`).
      handle: async ({ request }) => {
        const { user, claims } = await context.authenticated(request);
        const audience = headerValue(request, 'x-jwt-aud') ?? 'authenticated';
        const tokenAudience = Array.isArray(claims.aud) ? claims.aud[0] : claims.aud;
        if (tokenAudience !== audience) {
          throw authErrors.validation("Token audience doesn't match request audience");
        }
        return userJson(user);
      },
    },
    {
      method: 'PUT',
      path: '/user',
      // GoTrue's `UserUpdate`.
      handle: async ({ request, url }) => {
        const caller = await context.authenticated(request);
        const { user, sessionId, claims } = caller;
        const body = await readJsonObject(request);
        context.limit(context.limiters.userUpdate, request);
        const password = body.password === undefined || body.password === null ? undefined : body.password;
        if (password !== undefined) {
          if (typeof password !== 'string') throw authErrors.badJson();
          context.checkPasswordStrength(password);
        }
        if (body.app_metadata !== undefined && !adminRoles.has(String(claims.role))) {
          throw authErrors.notAdmin('Updating app_metadata requires admin privileges');
        }
        await checkChange(caller, {
          password,
          email: stringField(body, 'email'),
          phone: stringField(body, 'phone'),
          nonce: stringField(body, 'nonce'),
          currentPassword: stringField(body, 'current_password'),
        });
        if (body.phone !== undefined && body.phone !== '') throw authErrors.phoneSignupsDisabled();
        const rawEmail = stringField(body, 'email') ?? '';
        const newEmail = rawEmail === '' ? undefined : validEmail(rawEmail);
        if (newEmail !== undefined && newEmail !== user.email) {
          const taken = await pool.query('select from auth.users where lower(email) = $1 and id <> $2', [
            newEmail,
            user.id,
          ]);
          if (taken.rowCount) throw authErrors.emailExists();
          // Mailed before anything else changes: a change asked too soon changes nothing.
          await requestEmailChange(
            context,
            { id: user.id, email: user.email, metadata: user.raw_user_meta_data ?? {} },
            newEmail,
            url.searchParams.get('redirect_to'),
            codeChallengeOf(body),
          );
        }
        await updateUser(pool, user.id, {
          password,
          metadata: objectField(body, 'data'),
          sessionId: sessionId ?? null,
        });
        if (password) await notifyAccountChange(context, 'password_changed', user.id);
        const updated = await findUserById(pool, user.id);
        return userJson(updated ?? user);
      },
    },
    {
      method: 'POST',
      path: '/logout',
      handle: async ({ request, response, url }) => {
        const { user, sessionId } = await context.authenticated(request);
        const scope = logoutScopeOf(url);
        // A token without a session logs its user out everywhere, as GoTrue's Logout.
        await endSessions(pool, user.id, sessionId ?? null, sessionId ? scope : 'global');
        response.writeHead(204, apiVersionHeader);
        response.end();
        return null;
      },
    },
  ];
}
