import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from '../http';
import { adminRoutes } from './admin';
import { createRequireAdmin } from './admin-credentials';
import { createAuthContext, type AuthOptions } from './context';
import { apiVersionHeader, AuthError, authErrors, sendAuthError } from './errors';
import { createLinkMailer, linkRoutes } from './links';
import { mfaRoutes } from './mfa';
import { otpRoutes } from './otp';
import { reauthenticationRoutes } from './password-change';
import { matchRoute, type AuthRoute } from './route';
import { settingsRoutes } from './settings';
import { createSignUp, signUpRoutes } from './signup';
import { tokenRoutes } from './token';
import { userRoutes } from './user';
import { verifyRoutes } from './verify';

export type { AuthOptions } from './context';
export type { AuthRateLimits } from './rate-limiter';

/**
 * GoTrue endpoints the stack does not serve, refused with a 4xx (auth-js retries a 5xx as a network fault):
 * what hosted Auth answers when the feature is switched off as config.toml has it (api/external.go,
 * api/middleware.go), else GoTrue's `feature_disabled` naming what the local stack lacks.
 */
const refusedEndpoints: Record<string, () => AuthError> = {
  '/authorize': () => authErrors.validation('Unsupported provider: provider is not enabled'),
  '/callback': () => authErrors.validation('Unsupported provider: provider is not enabled'),
  '/sso': () => new AuthError(404, 'saml_provider_disabled', 'SAML 2.0 is disabled'),
  '/user/identities': () => new AuthError(404, 'manual_linking_disabled', 'Manual linking is disabled'),
  '/resend': () => featureMissing('Resending confirmation mails'),
};

function featureMissing(feature: string) {
  return new AuthError(404, 'feature_disabled', `${feature} are not supported by the local stack`);
}

function refusal(method: string, path: string): AuthError {
  const refused = Object.entries(refusedEndpoints).find(
    ([prefix]) => path === prefix || path.startsWith(`${prefix}/`),
  );
  return refused ? refused[1]() : authErrors.notFound(`${method} ${path}`);
}

/**
 * The GoTrue endpoints supabase-js calls, served from `auth.*` tables of the real database, by GoTrue's
 * own areas: token grants, sign-up, mailed links and codes, the signed-in user, admin, MFA, settings.
 */
export function createAuthHandler(options: AuthOptions) {
  const context = createAuthContext(options);
  const links = createLinkMailer(context);
  const signUp = createSignUp(context, links);
  const requireAdmin = createRequireAdmin(context);
  const routes: AuthRoute[] = [
    ...tokenRoutes(context),
    ...signUpRoutes(context, signUp),
    ...linkRoutes(context, links),
    ...verifyRoutes(context),
    ...otpRoutes(context, { links, signUp, requireAdmin }),
    ...userRoutes(context),
    ...reauthenticationRoutes(context),
    ...adminRoutes(context, requireAdmin),
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
      if (!matched) throw refusal(method, path);
      const body = await matched.route.handle({ request, response, url, params: matched.params });
      if (body) sendJson(response, 200, body, apiVersionHeader);
    } catch (error) {
      if (error instanceof AuthError) return sendAuthError(request, response, error);
      throw error;
    }
  };
}
