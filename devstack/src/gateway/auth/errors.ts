import type { IncomingMessage, ServerResponse } from 'node:http';
import { headerValue, sendJson } from '../http';

/** GoTrue's API version header: supabase-js then reads the error code from `code`. */
export const apiVersionHeader = { 'X-Supabase-Api-Version': '2024-01-01' };

/** An error answered in GoTrue's shape, with GoTrue's status, code and message. */
export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Whether the caller asked for API version 2024-01-01 or later (`X-Supabase-Api-Version`). */
function wantsVersion20240101(request: IncomingMessage): boolean {
  const asked = headerValue(request, 'x-supabase-api-version')?.trim() ?? '';
  return /^\d{4}-\d{2}-\d{2}$/.test(asked) && asked >= '2024-01-01';
}

/**
 * The error body by API version, as GoTrue's `HandleResponseError` (api/errors.go): from 2024-01-01
 * `{code, message}` with the version echoed; before it `{code: <status>, error_code, msg}`.
 */
export function sendAuthError(request: IncomingMessage, response: ServerResponse, error: AuthError) {
  if (wantsVersion20240101(request)) {
    sendJson(
      response,
      error.status,
      { code: error.code, message: error.message, ...error.extra },
      apiVersionHeader,
    );
    return;
  }
  sendJson(response, error.status, {
    code: error.status,
    error_code: error.code,
    msg: error.message,
    ...error.extra,
  });
}

/** GoTrue's `MaxPasswordLength`: bcrypt reads no further. */
export const maxPasswordBytes = 72;

export const authErrors = {
  invalidCredentials: () => new AuthError(400, 'invalid_credentials', 'Invalid login credentials'),
  userAlreadyExists: () => new AuthError(422, 'user_already_exists', 'User already registered'),
  weakPassword: (minimum: number) =>
    new AuthError(422, 'weak_password', `Password should be at least ${minimum} characters.`, {
      weak_password: { reasons: ['length'] },
    }),
  passwordTooLong: () =>
    new AuthError(400, 'validation_failed', `Password cannot be longer than ${maxPasswordBytes} characters`),
  samePassword: () =>
    new AuthError(422, 'same_password', 'New password should be different from the old password.'),
  invalidEmail: () =>
    new AuthError(400, 'validation_failed', 'Unable to validate email address: invalid format'),
  validation: (message: string) => new AuthError(400, 'validation_failed', message),
  rateLimited: () => new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached'),
  emailRateLimited: () => new AuthError(429, 'over_email_send_rate_limit', 'Email rate limit exceeded'),
  /** A second mail of one kind to one user within `max_frequency` (api/errors.go). */
  emailTooSoon: (seconds: number) =>
    new AuthError(
      429,
      'over_email_send_rate_limit',
      `For security purposes, you can only request this after ${seconds} seconds.`,
    ),
  signupDisabled: () => new AuthError(422, 'signup_disabled', 'Signups not allowed for this instance'),
  emailSignupsDisabled: () => new AuthError(400, 'email_provider_disabled', 'Email signups are disabled'),
  emailLoginsDisabled: () => new AuthError(422, 'email_provider_disabled', 'Email logins are disabled'),
  phoneSignupsDisabled: () => new AuthError(400, 'phone_provider_disabled', 'Phone signups are disabled'),
  phoneLoginsDisabled: () => new AuthError(422, 'phone_provider_disabled', 'Phone logins are disabled'),
  anonymousDisabled: () =>
    new AuthError(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled'),
  emailNotConfirmed: () => new AuthError(400, 'email_not_confirmed', 'Email not confirmed'),
  refreshTokenNotFound: () =>
    new AuthError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found'),
  /** internal/tokens/service.go: the session's time-box or inactivity time-out has passed. */
  sessionExpired: (reason = '') =>
    new AuthError(400, 'session_expired', `Invalid Refresh Token: Session Expired${reason}`),
  refreshTokenAlreadyUsed: () =>
    new AuthError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used'),
  noAuthorization: () =>
    new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token'),
  badJwt: (reason: string, status = 403) => new AuthError(status, 'bad_jwt', reason),
  sessionNotFound: () =>
    new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist'),
  userNotFound: () => new AuthError(404, 'user_not_found', 'User not found'),
  /** models/user.go `IsBanned`: 403 where a token or link is presented, 400 on the token grants. */
  userBanned: (status = 403, message = 'User is banned') => new AuthError(status, 'user_banned', message),
  /** api/errors.go `DuplicateEmailMsg`. */
  emailExists: () =>
    new AuthError(422, 'email_exists', 'A user with this email address has already been registered'),
  notAdmin: (message = 'User not allowed') => new AuthError(403, 'not_admin', message),
  otpExpired: () => new AuthError(403, 'otp_expired', 'Email link is invalid or has expired'),
  tokenExpired: () => new AuthError(403, 'otp_expired', 'Token has expired or is invalid'),
  flowStateNotFound: () =>
    new AuthError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found'),
  noFlowStateForUser: () => new AuthError(422, 'flow_state_not_found', 'No valid flow state found for user.'),
  flowStateExpired: () =>
    new AuthError(400, 'flow_state_expired', 'invalid flow state, flow state has expired'),
  badCodeVerifier: () =>
    new AuthError(400, 'bad_code_verifier', 'code challenge does not match previously saved code verifier'),
  unsupportedGrant: () => new AuthError(400, 'invalid_credentials', 'unsupported_grant_type'),
  notFound: (path: string) => new AuthError(404, 'not_found', `Unsupported Auth endpoint: ${path}`),
  badJson: () => new AuthError(400, 'bad_json', 'Could not parse request body as JSON'),
};
