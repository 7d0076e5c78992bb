import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from '../http';
import { adminRoutes } from './admin';
import { createAuthContext, type AuthOptions } from './context';
import { apiVersionHeader, AuthError, authErrors, sendAuthError } from './errors';
import { createLinkMailer, linkRoutes } from './links';
import { mfaRoutes } from './mfa';
import { reauthenticationRoutes } from './password-change';
import { matchRoute, type AuthRoute } from './route';
import { settingsRoutes } from './settings';
import { signUpRoutes } from './signup';
import { tokenRoutes } from './token';
import { userRoutes } from './user';

export type { AuthOptions } from './context';
export type { AuthRateLimits } from './rate-limiter';

/**
 * GoTrue endpoints the stack does not implement, refused by name (rather than a bare 404) so a caller
 * knows the feature, not the URL, is missing locally.
 */
const unsupportedEndpoints: Record<string, string> = {
  '/authorize': 'OAuth providers (signInWithOAuth)',
  '/callback': 'OAuth providers (signInWithOAuth)',
  '/otp': 'one-time passwords and magic links (signInWithOtp)',
  '/magiclink': 'magic links',
  '/resend': 'resending confirmation mails',
  '/invite': 'invitations',
  '/sso': 'SAML single sign-on',
  '/user/identities': 'identity linking',
};

function unsupported(method: string, path: string): AuthError {
  const feature = Object.entries(unsupportedEndpoints).find(
    ([prefix]) => path === prefix || path.startsWith(`${prefix}/`),
  );
  if (!feature) return authErrors.notFound(`${method} ${path}`);
  return new AuthError(
    501,
    'not_implemented',
    `${method} ${path}: ${feature[1]} are not supported by the local stack`,
  );
}

/**
 * The GoTrue endpoints supabase-js calls, served from `auth.*` tables of the real database, by GoTrue's
 * own areas: token grants, sign-up and mailed links, the signed-in user, admin, MFA, settings.
 */
export function createAuthHandler(options: AuthOptions) {
  const context = createAuthContext(options);
  const links = createLinkMailer(context);
  const routes: AuthRoute[] = [
    ...tokenRoutes(context),
    ...signUpRoutes(context, links),
    ...linkRoutes(context, links),
    ...userRoutes(context),
    ...reauthenticationRoutes(context),
    ...adminRoutes(context),
    ...mfaRoutes(context),
    ...settingsRoutes(context),
  ];

  return async function handleAuth(
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    url: URL,
  ) {
    const method = request.method ?? 'GET';
    try {
      const matched = matchRoute(routes, method, path);
      if (!matched) throw unsupported(method, path);
      const body = await matched.route.handle({ request, response, url, params: matched.params });
      if (body) sendJson(response, 200, body, apiVersionHeader);
    } catch (error) {
      if (error instanceof AuthError) return sendAuthError(request, response, error);
      throw error;
    }
  };
}
