import type { IncomingMessage } from 'node:http';
import type pg from 'pg';
import { bearerToken, headerValue } from '../http';
import type { JWTPayload } from 'jose';
import { InvalidJwtError, type JwtVerifier } from '../jwt';
import type { Mailbox } from '../mailbox';
import type { MailTemplates } from './mail-templates';
import type { ProjectConfig } from '../project-config';
import { AuthError, authErrors, maxPasswordBytes } from './errors';
import { authRateLimits, createRateLimiter, type AuthRateLimits } from './rate-limiter';
import { sessionAmr, sessionExists, startSession, tokenResponse, type SessionSettings } from './sessions';
import { findUserById } from './users';

export interface AuthOptions {
  pool: pg.Pool;
  jwt: JwtVerifier;
  mailbox: Mailbox;
  /** The project's e-mail templates (or GoTrue's defaults), parsed at start. */
  mailTemplates: MailTemplates;
  project: ProjectConfig;
  /** The public API URL, for links in e-mails and the JWT issuer. */
  apiUrl: string;
  /** Buckets that differ from `config.toml` (tests use generous or tight ones). */
  rateLimits: Partial<AuthRateLimits>;
  refreshTokenReuseIntervalSeconds: number;
}

/** badoux/checkmail's `ValidateFormat`, which GoTrue's `validateEmail` uses. */
export const emailPattern =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The JWT roles GoTrue treats as admin (`GOTRUE_JWT_ADMIN_ROLES` default). */
export const adminRoles = new Set(['service_role', 'supabase_admin']);

const nilUuid = '00000000-0000-0000-0000-000000000000';

/** A token's claims if the project's keys signed it and it has not expired, else GoTrue's 403 bad_jwt. */
export async function verifiedClaims(jwt: JwtVerifier, token: string): Promise<JWTPayload> {
  try {
    return await jwt.verifySignature(token);
  } catch (error) {
    const reason = error instanceof InvalidJwtError ? error.message : 'unable to verify';
    throw authErrors.badJwt(`invalid JWT: unable to parse or verify signature, ${reason}`);
  }
}

/** GoTrue's `validateEmail` (api/mail.go): required, at most 255 characters, a valid format; lower-cased. */
export function validEmail(email: string): string {
  if (email === '') throw authErrors.validation('An email address is required');
  if (email.length > 255) throw authErrors.validation('An email address is too long');
  if (!emailPattern.test(email)) throw authErrors.invalidEmail();
  return email.toLowerCase();
}

/** GoTrue's `requestAud`: `X-JWT-AUD`, else the token's audience, else `authenticated`. */
export function requestAud(request: IncomingMessage, claims: JWTPayload): string {
  const tokenAud = Array.isArray(claims.aud) ? claims.aud[0] : claims.aud;
  return headerValue(request, 'x-jwt-aud') || tokenAud || 'authenticated';
}

/** GoTrue's `checkPasswordStrength` (api/password.go): length first, then bcrypt's 72-byte bound. */
export function checkPasswordStrength(password: string, minimumLength: number) {
  if (password.length < minimumLength) throw authErrors.weakPassword(minimumLength);
  if (Buffer.byteLength(password, 'utf8') > maxPasswordBytes) throw authErrors.passwordTooLong();
}

/**
 * What every area of the local Auth shares: the database, the project's settings, GoTrue's rate limits,
 * the signed-in caller and new sessions.
 */
export function createAuthContext(options: AuthOptions) {
  const { pool, jwt, project } = options;
  const sessionSettings: SessionSettings = {
    issuer: `${options.apiUrl}/auth/v1`,
    jwtExpirySeconds: project.jwtExpirySeconds,
    refreshTokenReuseIntervalSeconds: options.refreshTokenReuseIntervalSeconds,
    timeboxSeconds: project.sessionTimeboxSeconds,
    inactivityTimeoutSeconds: project.sessionInactivityTimeoutSeconds,
  };
  const limits = authRateLimits(project, options.rateLimits);
  const limiters = {
    signup: createRateLimiter(limits.signInSignUps),
    recover: createRateLimiter(limits.signInSignUps),
    otp: createRateLimiter(limits.signInSignUps),
    magicLink: createRateLimiter(limits.signInSignUps),
    userUpdate: createRateLimiter(limits.signInSignUps),
    token: createRateLimiter(limits.tokenRefresh),
    verify: createRateLimiter(limits.verify),
    // GoTrue's MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY: 15 a minute per address, for each of the two.
    mfaChallenge: createRateLimiter({ limit: 15, windowMs: 60_000, burst: 30 }),
    mfaVerify: createRateLimiter({ limit: 15, windowMs: 60_000, burst: 30 }),
  };
  const allowEmail = createRateLimiter(limits.emailSent);
  /**
   * GoTrue keys its per-address limits on the header `GOTRUE_RATE_LIMIT_HEADER` names, set only behind a
   * proxy that writes it; unset, a caller's own `X-Forwarded-For` is not trusted and the connection's
   * address counts (GoTrue would not limit at all then).
   */
  const rateLimitHeader = process.env.GOTRUE_RATE_LIMIT_HEADER?.trim().toLowerCase() || undefined;

  function clientAddress(request: IncomingMessage): string {
    const fromHeader = rateLimitHeader ? headerValue(request, rateLimitHeader)?.trim() : undefined;
    return fromHeader || request.socket.remoteAddress || 'unknown';
  }

  function limit(limiter: (key: string) => boolean, request: IncomingMessage) {
    if (!limiter(clientAddress(request))) throw authErrors.rateLimited();
  }

  /**
   * The signed-in caller, in GoTrue's order (api/auth.go `requireAuthentication`): a validly signed,
   * unexpired token of any role whose `sub` is an existing user, and whose `session_id`, when it names one,
   * still exists. A token without `session_id` has no session (GoTrue answers `GET /user` for it).
   */
  async function authenticated(request: IncomingMessage) {
    const token = bearerToken(request);
    if (!token) throw authErrors.noAuthorization();
    const claims = await verifiedClaims(jwt, token);
    const sub = typeof claims.sub === 'string' ? claims.sub : '';
    if (!sub) throw authErrors.badJwt('invalid claim: missing sub claim');
    // Validly signed but malformed: GoTrue's 4xx bad_jwt, never a database error.
    if (!uuidPattern.test(sub)) throw authErrors.badJwt('invalid claim: sub claim must be a UUID', 400);
    const user = await findUserById(pool, sub);
    if (!user) throw new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
    // A token issued before the ban still verifies; api/auth.go refuses its holder.
    if (user.is_banned) throw authErrors.userBanned();
    const claimedSession = typeof claims.session_id === 'string' ? claims.session_id : '';
    const sessionId = claimedSession === '' || claimedSession === nilUuid ? undefined : claimedSession;
    if (sessionId !== undefined) {
      if (!uuidPattern.test(sessionId))
        throw authErrors.badJwt('invalid claim: session_id claim must be a UUID');
      if (!(await sessionExists(pool, sessionId))) throw authErrors.sessionNotFound();
    }
    return { user, sessionId, claims };
  }

  /**
   * The caller of an endpoint that acts on their session (MFA): a token without `session_id` is refused
   * with a 4xx where GoTrue answers 500 ("A valid session … required", api/mfa.go).
   */
  async function authenticatedInSession(request: IncomingMessage) {
    const caller = await authenticated(request);
    const { sessionId } = caller;
    if (!sessionId)
      throw new AuthError(
        403,
        'session_not_found',
        'A valid session is required: the token has no session_id',
      );
    return { ...caller, sessionId };
  }

  /** A new session for `userId`, authenticated by `method`, answered as GoTrue's token response. */
  async function sessionFor(userId: string, request: IncomingMessage, method: string) {
    const { sessionId, refreshToken } = await startSession(
      pool,
      userId,
      method,
      request.headers['user-agent'],
      clientAddress(request),
    );
    const user = await findUserById(pool, userId);
    if (!user) throw authErrors.userNotFound();
    return tokenResponse(
      jwt,
      sessionSettings,
      user,
      sessionId,
      refreshToken,
      await sessionAmr(pool, sessionId),
    );
  }

  return {
    ...options,
    sessionSettings,
    limiters,
    allowEmail,
    clientAddress,
    limit,
    authenticated,
    authenticatedInSession,
    sessionFor,
    checkPasswordStrength: (password: string) =>
      checkPasswordStrength(password, project.minimumPasswordLength),
  };
}

export type AuthContext = ReturnType<typeof createAuthContext>;
export type Caller = Awaited<ReturnType<AuthContext['authenticated']>>;
export type SessionCaller = Awaited<ReturnType<AuthContext['authenticatedInSession']>>;
