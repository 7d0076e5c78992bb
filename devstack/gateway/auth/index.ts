import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
import { bearerToken, clientIp, readBody, sendJson } from '../http';
import { InvalidJwtError, type JwtVerifier, type VerifiedClaims } from '../jwt';
import type { Mailbox } from '../mailbox';
import type { ProjectConfig } from '../project-config';
import { apiVersionHeader, AuthError, authErrors, sendAuthError } from './errors';
import { createRateLimiter, type RateLimit } from './rate-limiter';
import {
  endSessions,
  rotateRefreshToken,
  sessionAmr,
  sessionExists,
  startSession,
  tokenResponse,
} from './sessions';
import {
  findUserByEmail,
  findUserById,
  findUserByPassword,
  insertUser,
  passwordMatches,
  updateUser,
  userJson,
} from './users';

export interface AuthRateLimits {
  /** Sign-ins (password grant) and sign-ups, per IP address and per e-mail. */
  signInSignUps: RateLimit;
  /** Recovery e-mails, per IP address and per e-mail. */
  emailSent: RateLimit;
}

export interface AuthOptions {
  pool: pg.Pool;
  jwt: JwtVerifier;
  mailbox: Mailbox;
  project: ProjectConfig;
  /** The public API URL, for links in e-mails and the JWT issuer. */
  apiUrl: string;
  rateLimits: AuthRateLimits;
  refreshTokenReuseIntervalSeconds: number;
}

const recoveryLinkLifetimeMs = 60 * 60 * 1000;
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function hashToken(token: string) {
  return createHash('sha256').update(token).digest('hex');
}

function stringField(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' ? value : undefined;
}

function objectField(body: Record<string, unknown>, name: string): Record<string, unknown> | undefined {
  const value = body[name];
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

async function readJsonObject(request: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = (await readBody(request, 1024 * 1024)).toString('utf8');
  if (raw.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // Answered below with GoTrue's bad_json error.
  }
  throw authErrors.badJson();
}

/** The GoTrue endpoints supabase-js calls, served from `auth.*` tables of the real database. */
export function createAuthHandler(options: AuthOptions) {
  const { pool, jwt, mailbox, project } = options;
  const sessionSettings = {
    issuer: `${options.apiUrl}/auth/v1`,
    jwtExpirySeconds: project.jwtExpirySeconds,
    refreshTokenReuseIntervalSeconds: options.refreshTokenReuseIntervalSeconds,
  };
  const allowSignInSignUp = createRateLimiter(options.rateLimits.signInSignUps);
  const allowEmail = createRateLimiter(options.rateLimits.emailSent);

  function rateLimitKeys(request: IncomingMessage, email: string | undefined) {
    return [`ip:${clientIp(request)}`, ...(email ? [`email:${email.toLowerCase()}`] : [])];
  }

  function checkPassword(password: string | undefined): string {
    if (!password) throw authErrors.validation('Signup requires a valid password');
    if (password.length < project.minimumPasswordLength)
      throw authErrors.weakPassword(project.minimumPasswordLength);
    return password;
  }

  /** The signed-in caller: a valid user JWT whose session still exists. */
  async function authenticatedUser(request: IncomingMessage) {
    const token = bearerToken(request);
    if (!token) throw authErrors.noAuthorization();
    let claims: VerifiedClaims;
    try {
      claims = await jwt.verify(token);
    } catch (error) {
      throw authErrors.badJwt(error instanceof InvalidJwtError ? error.message : 'unable to verify');
    }
    if (!claims.sub) throw authErrors.badJwt('invalid claim: missing sub claim');
    if (!claims.session_id || !(await sessionExists(pool, claims.session_id)))
      throw authErrors.sessionNotFound();
    const user = await findUserById(pool, claims.sub);
    if (!user) throw new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
    return { user, sessionId: claims.session_id };
  }

  async function sessionFor(userId: string, request: IncomingMessage, method: string) {
    const { sessionId, refreshToken } = await startSession(
      pool,
      userId,
      method,
      request.headers['user-agent'],
      clientIp(request),
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

  /**
   * GoTrue honours `redirect_to` for the site URL's host name (any port), a loopback IP address (any
   * port, as GoTrue's `IsRedirectURLValid` does) or an allow-listed URL.
   */
  function allowedRedirect(requested: string | null): string {
    if (!requested) return project.siteUrl;
    const allowed = [project.siteUrl, ...project.additionalRedirectUrls];
    try {
      const target = new URL(requested);
      const loopbackIp = /^127(\.\d{1,3}){3}$/.test(target.hostname) || target.hostname === '[::1]';
      if (target.hostname === new URL(project.siteUrl).hostname || loopbackIp) return requested;
      if (allowed.some((url) => url === requested || new URL(url).origin === target.origin)) return requested;
    } catch {
      // Not a URL: fall back to the site URL.
    }
    return project.siteUrl;
  }

  async function signUp(request: IncomingMessage) {
    const body = await readJsonObject(request);
    const email = stringField(body, 'email')?.trim();
    if (!email || !emailPattern.test(email)) throw authErrors.invalidEmail();
    const password = checkPassword(stringField(body, 'password'));
    if (!allowSignInSignUp(rateLimitKeys(request, email))) throw authErrors.rateLimited();
    if (await findUserByEmail(pool, email)) throw authErrors.userAlreadyExists();
    let userId: string;
    try {
      userId = await insertUser(pool, { email, password, metadata: objectField(body, 'data') ?? {} });
    } catch (error) {
      // Two sign-ups racing for one address: the unique index decides.
      if ((error as { code?: string }).code === '23505') throw authErrors.userAlreadyExists();
      throw error;
    }
    return sessionFor(userId, request, 'password');
  }

  async function passwordGrant(request: IncomingMessage) {
    const body = await readJsonObject(request);
    const email = stringField(body, 'email')?.trim();
    const password = stringField(body, 'password');
    if (!email || !password) throw authErrors.invalidCredentials();
    if (!allowSignInSignUp(rateLimitKeys(request, email))) throw authErrors.rateLimited();
    const user = await findUserByPassword(pool, email, password);
    if (!user) throw authErrors.invalidCredentials();
    return sessionFor(user.id, request, 'password');
  }

  async function refreshGrant(request: IncomingMessage) {
    const presented = stringField(await readJsonObject(request), 'refresh_token');
    if (!presented) throw authErrors.refreshTokenNotFound();
    const { user, sessionId, refreshToken, amr } = await rotateRefreshToken(pool, presented, sessionSettings);
    return tokenResponse(jwt, sessionSettings, user, sessionId, refreshToken, amr);
  }

  async function changeUser(request: IncomingMessage) {
    const { user, sessionId } = await authenticatedUser(request);
    const body = await readJsonObject(request);
    if (body.email !== undefined && body.email !== user.email) {
      throw authErrors.validation('Changing the e-mail address is not supported by the local stack');
    }
    const password = body.password === undefined ? undefined : checkPassword(stringField(body, 'password'));
    if (password && (await passwordMatches(pool, user.id, password))) throw authErrors.samePassword();
    await updateUser(pool, user.id, { password, metadata: objectField(body, 'data'), sessionId });
    const updated = await findUserById(pool, user.id);
    return userJson(updated ?? user);
  }

  async function recover(request: IncomingMessage, url: URL) {
    const email = stringField(await readJsonObject(request), 'email')?.trim();
    if (!email || !emailPattern.test(email)) throw authErrors.invalidEmail();
    if (!allowEmail(rateLimitKeys(request, email))) throw authErrors.emailRateLimited();
    const user = await findUserByEmail(pool, email);
    // Unknown addresses get the same answer, so the endpoint does not reveal who has an account.
    if (!user) return {};
    const token = randomBytes(24).toString('base64url');
    await pool.query(
      `update auth.users set recovery_token = $2, recovery_sent_at = now(), updated_at = now() where id = $1`,
      [user.id, hashToken(token)],
    );
    const link = new URL(`${options.apiUrl}/auth/v1/verify`);
    link.searchParams.set('token', token);
    link.searchParams.set('type', 'recovery');
    link.searchParams.set('redirect_to', allowedRedirect(url.searchParams.get('redirect_to')));
    mailbox.send({
      to: user.email.toLowerCase(),
      subject: 'Reset Your Password',
      text: `Follow this link to reset the password for your user:\n${link.href}`,
      html: `<h2>Reset Password</h2><p>Follow this link to reset the password for your user:</p><p><a href="${link.href}">Reset Password</a></p>`,
    });
    return {};
  }

  /** Consumes a recovery token (single use, one hour) and starts a session for its user. */
  async function redeemRecoveryToken(token: string, request: IncomingMessage) {
    const { rows } = await pool.query<{ id: string }>(
      `update auth.users set recovery_token = '', email_confirmed_at = coalesce(email_confirmed_at, now())
       where recovery_token = $1 and recovery_token <> '' and recovery_sent_at > now() - $2 * interval '1 millisecond'
       returning id`,
      [hashToken(token), recoveryLinkLifetimeMs],
    );
    if (!rows[0]) throw authErrors.otpExpired();
    return sessionFor(rows[0].id, request, 'otp');
  }

  /** The e-mailed link: a redirect carrying the session in the fragment (GoTrue's implicit flow). */
  async function verifyLink(request: IncomingMessage, response: ServerResponse, url: URL) {
    const redirect = allowedRedirect(url.searchParams.get('redirect_to'));
    const token = url.searchParams.get('token') ?? '';
    let fragment: URLSearchParams;
    if (url.searchParams.get('type') !== 'recovery') {
      fragment = new URLSearchParams({
        error: 'unauthorized_client',
        error_code: 'bad_request',
        error_description: 'Only recovery links are supported',
      });
    } else {
      try {
        const session = await redeemRecoveryToken(token, request);
        fragment = new URLSearchParams({
          access_token: session.access_token,
          expires_at: String(session.expires_at),
          expires_in: String(session.expires_in),
          refresh_token: session.refresh_token,
          token_type: 'bearer',
          type: 'recovery',
        });
      } catch (error) {
        if (!(error instanceof AuthError)) throw error;
        fragment = new URLSearchParams({
          error: 'access_denied',
          error_code: error.code,
          error_description: error.message,
        });
      }
    }
    response.writeHead(303, { Location: `${redirect.split('#')[0]}#${fragment}` });
    response.end();
  }

  async function verifyOtp(request: IncomingMessage) {
    const body = await readJsonObject(request);
    const token = stringField(body, 'token_hash') ?? stringField(body, 'token');
    if (stringField(body, 'type') !== 'recovery' || !token) {
      throw authErrors.validation('Only recovery verification with token_hash is supported');
    }
    return redeemRecoveryToken(token, request);
  }

  async function logout(request: IncomingMessage, url: URL) {
    const { user, sessionId } = await authenticatedUser(request);
    const scope = url.searchParams.get('scope') ?? 'global';
    if (scope !== 'global' && scope !== 'local' && scope !== 'others') {
      throw authErrors.validation(`Unsupported logout scope: ${scope}`);
    }
    await endSessions(pool, user.id, sessionId, scope);
  }

  async function deleteUser(request: IncomingMessage, userId: string) {
    const token = bearerToken(request);
    let role: string | undefined;
    try {
      role = token ? (await jwt.verify(token)).role : undefined;
    } catch {
      role = undefined;
    }
    if (role !== 'service_role') throw authErrors.notAdmin();
    if (!/^[0-9a-f-]{36}$/i.test(userId)) throw authErrors.validation('user_id must be a UUID');
    const { rowCount } = await pool.query('delete from auth.users where id = $1', [userId]);
    if (rowCount === 0) throw authErrors.userNotFound();
    return {};
  }

  async function route(request: IncomingMessage, response: ServerResponse, path: string, url: URL) {
    const method = request.method ?? 'GET';
    const reply = (body: unknown, status = 200) => sendJson(response, status, body, apiVersionHeader);
    if (path === '/signup' && method === 'POST') return reply(await signUp(request));
    if (path === '/token' && method === 'POST') {
      const grant = url.searchParams.get('grant_type');
      if (grant === 'password') return reply(await passwordGrant(request));
      if (grant === 'refresh_token') return reply(await refreshGrant(request));
      throw authErrors.validation(`Unsupported grant_type: ${grant ?? '(none)'}`);
    }
    if (path === '/user' && method === 'GET') return reply(userJson((await authenticatedUser(request)).user));
    if (path === '/user' && method === 'PUT') return reply(await changeUser(request));
    if (path === '/logout' && method === 'POST') {
      await logout(request, url);
      response.writeHead(204, apiVersionHeader);
      return response.end();
    }
    if (path === '/recover' && method === 'POST') return reply(await recover(request, url));
    if (path === '/verify' && method === 'GET') return verifyLink(request, response, url);
    if (path === '/verify' && method === 'POST') return reply(await verifyOtp(request));
    const adminUser = path.match(/^\/admin\/users\/([^/]+)$/);
    if (adminUser && method === 'DELETE')
      return reply(await deleteUser(request, decodeURIComponent(adminUser[1] ?? '')));
    throw authErrors.notFound(`${method} ${path}`);
  }

  return async function handleAuth(
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    url: URL,
  ) {
    try {
      await route(request, response, path, url);
    } catch (error) {
      if (error instanceof AuthError) return sendAuthError(response, error);
      throw error;
    }
  };
}
