import type { IncomingMessage } from 'node:http';
import type { AuthContext } from './context';
import { exchangeAuthCode } from './flow-state';
import { AuthError, authErrors, maxPasswordBytes } from './errors';
import { readJsonObject, stringField } from './request-body';
import type { AuthRoute } from './route';
import { rotateRefreshToken, tokenResponse } from './sessions';
import { findUserByEmail, findUserByPassword } from './users';

/** The grants the local Auth answers: three served, two always refused as switched off. */
const grantTypes = ['password', 'refresh_token', 'pkce', 'id_token', 'web3'] as const;
export type GrantType = (typeof grantTypes)[number];

/** `grant_type` of `POST /token`, refused as GoTrue's `Token` does for the rest (api/token.go). */
export function grantTypeOf(url: URL): GrantType {
  const grant = grantTypes.find((type) => type === url.searchParams.get('grant_type'));
  if (!grant) throw authErrors.unsupportedGrant();
  return grant;
}

/** Issuers GoTrue names without reading the ID token (api/token_oidc.go `getProvider`). */
const providerIssuers: Record<string, string> = {
  google: 'https://accounts.google.com',
  facebook: 'https://www.facebook.com',
  kakao: 'https://kauth.kakao.com',
};

/**
 * External providers are always off here (`[auth.external.*] enabled = true` stops the stack at start), so
 * an ID token meets hosted's answer for a disabled provider; one whose issuer comes from the token itself
 * is refused by name.
 */
async function idTokenGrant(request: IncomingMessage): Promise<never> {
  const body = await readJsonObject(request);
  const issuer = providerIssuers[stringField(body, 'provider') ?? ''];
  if (!stringField(body, 'id_token') || !issuer)
    throw authErrors.validation('grant_type=id_token is not supported by the local stack for this provider');
  throw new AuthError(400, 'provider_disabled', `Provider (issuer "${issuer}") is not enabled`);
}

/** Web3 is always off here (api/web3.go: neither Solana nor Ethereum enabled). */
async function web3Grant(): Promise<never> {
  throw new AuthError(422, 'web3_provider_disabled', 'Web3 provider is disabled');
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
    // GoTrue refuses a banned person before comparing the password.
    if ((await findUserByEmail(pool, email))?.is_banned) throw authErrors.userBanned(400);
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

  const grants = {
    password: passwordGrant,
    refresh_token: refreshGrant,
    pkce: pkceGrant,
    id_token: idTokenGrant,
    web3: web3Grant,
  };

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
