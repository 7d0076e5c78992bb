import type { ServerResponse } from 'node:http';
import { sendJson } from '../http';

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

export function sendAuthError(response: ServerResponse, error: AuthError) {
  sendJson(
    response,
    error.status,
    { code: error.code, error_code: error.code, msg: error.message, ...error.extra },
    apiVersionHeader,
  );
}

export const authErrors = {
  invalidCredentials: () => new AuthError(400, 'invalid_credentials', 'Invalid login credentials'),
  userAlreadyExists: () => new AuthError(422, 'user_already_exists', 'User already registered'),
  weakPassword: (minimum: number) =>
    new AuthError(422, 'weak_password', `Password should be at least ${minimum} characters.`, {
      weak_password: { reasons: ['length'] },
    }),
  samePassword: () =>
    new AuthError(422, 'same_password', 'New password should be different from the old password.'),
  invalidEmail: () =>
    new AuthError(400, 'validation_failed', 'Unable to validate email address: invalid format'),
  validation: (message: string) => new AuthError(400, 'validation_failed', message),
  rateLimited: () => new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached'),
  emailRateLimited: () => new AuthError(429, 'over_email_send_rate_limit', 'Email rate limit exceeded'),
  refreshTokenNotFound: () =>
    new AuthError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found'),
  refreshTokenAlreadyUsed: () =>
    new AuthError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used'),
  noAuthorization: () =>
    new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token'),
  badJwt: (reason: string) => new AuthError(403, 'bad_jwt', `invalid JWT: ${reason}`),
  sessionNotFound: () =>
    new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist'),
  userNotFound: () => new AuthError(404, 'user_not_found', 'User not found'),
  notAdmin: () => new AuthError(403, 'not_admin', 'User not allowed'),
  otpExpired: () => new AuthError(403, 'otp_expired', 'Email link is invalid or has expired'),
  notFound: (path: string) => new AuthError(404, 'not_found', `Unsupported Auth endpoint: ${path}`),
  badJson: () => new AuthError(400, 'bad_json', 'Could not parse request body as JSON'),
};
