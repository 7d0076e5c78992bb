import type { IncomingMessage } from 'node:http';
import type { AuthContext } from './context';
import { exchangeAuthCode } from './email-links';
import { authErrors, maxPasswordBytes } from './errors';
import { readJsonObject, stringField } from './request-body';
import type { AuthRoute } from './route';
import { rotateRefreshToken, tokenResponse } from './sessions';
import { findUserByPassword } from './users';

/** The grants the local Auth serves. */
export type GrantType = 'password' | 'refresh_token' | 'pkce';

/** `grant_type` of `POST /token`, refused as GoTrue's `Token` does for the rest (api/token.go). */
export function grantTypeOf(url: URL): GrantType {
  const grant = url.searchParams.get('grant_type');
  if (grant === 'password' || grant === 'refresh_token' || grant === 'pkce') return grant;
  throw grant === 'id_token' || grant === 'web3'
    ? authErrors.validation(`grant_type=${grant} is not supported by the local stack`)
    : authErrors.unsupportedGrant();
}

/** POST /token: GoTrue's token grants (api/token.go, api/token_refresh.go, api/pkce.go). */
export function tokenRoutes(context: AuthContext): AuthRoute[] {
  const { pool, jwt, project, sessionSettings } = context;

  async function passwordGrant(request: IncomingMessage) {
    const body = await readJsonObject(request);
    const email = stringField(body, 'email')?.trim() ?? '';
    const phone = stringField(body, 'phone') ?? '';
    const password = stringField(body, 'password') ?? '';
    // GoTrue's order (api/token.go `ResourceOwnerPasswordGrant`).
    if (email !== '' && phone !== '') {
      throw authErrors.validation('Only an email address or phone number should be provided on login.');
    }
    if (email !== '' && !project.enableEmailProvider) throw authErrors.emailLoginsDisabled();
    if (email === '' && phone !== '') throw authErrors.phoneLoginsDisabled();
    if (email === '') throw authErrors.validation('missing email or phone');
    // bcrypt compares 72 bytes only; a longer password can never have been set, so it never matches.
    if (Buffer.byteLength(password, 'utf8') > maxPasswordBytes) throw authErrors.invalidCredentials();
    const user = await findUserByPassword(pool, email, password);
    if (!user) throw authErrors.invalidCredentials();
    if (!user.email_confirmed_at) throw authErrors.emailNotConfirmed();
    return context.sessionFor(user.id, request, 'password');
  }

  async function refreshGrant(request: IncomingMessage) {
    const presented = stringField(await readJsonObject(request), 'refresh_token') ?? '';
    // api/token_refresh.go `RefreshTokenGrantParams.Validate`.
    if (presented.length < 12) throw authErrors.validation('Refresh token is not valid');
    const { user, sessionId, refreshToken, amr } = await rotateRefreshToken(pool, presented, sessionSettings);
    return tokenResponse(jwt, sessionSettings, user, sessionId, refreshToken, amr);
  }

  async function pkceGrant(request: IncomingMessage) {
    const body = await readJsonObject(request);
    const { userId, method } = await exchangeAuthCode(
      pool,
      stringField(body, 'auth_code') ?? '',
      stringField(body, 'code_verifier') ?? '',
      project.flowStateExpirySeconds,
    );
    return context.sessionFor(userId, request, method);
  }

  const grants = { password: passwordGrant, refresh_token: refreshGrant, pkce: pkceGrant };

  return [
    {
      method: 'POST',
      path: '/token',
      handle: async ({ request, url }) => {
        const grant = grantTypeOf(url);
        context.limit(context.limiters.token, request);
        return grants[grant](request);
      },
    },
  ];
}
