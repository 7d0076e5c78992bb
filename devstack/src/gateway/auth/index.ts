import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
import { bearerToken, headerValue, readBody, sendJson } from '../http';
import { InvalidJwtError, type JwtVerifier, type VerifiedClaims } from '../jwt';
import type { Mailbox } from '../mailbox';
import type { ProjectConfig } from '../project-config';
import {
  codeChallengeOf,
  exchangeAuthCode,
  isLinkKind,
  issueLinkToken,
  redeemLinkToken,
  type CodeChallenge,
  type LinkKind,
} from './email-links';
import { apiVersionHeader, AuthError, authErrors, maxPasswordBytes, sendAuthError } from './errors';
import { createMfaHandlers } from './mfa';
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

/** GoTrue's rate-limit buckets (api/options.go); the first three count per client address. */
export interface AuthRateLimits {
  /** `sign_in_sign_ups` (GoTrue's OTP rate): sign-ups, recovery requests and user updates, each apart. */
  signInSignUps: RateLimit;
  /** `token_refresh`: every `/token` grant (password, refresh token, PKCE code). */
  tokenRefresh: RateLimit;
  /** `token_verifications`: `/verify`, the mailed links and OTP checks. */
  verify: RateLimit;
  /** `email_sent`: e-mails per hour for the whole project, whoever asks. */
  emailSent: RateLimit;
}

export interface AuthOptions {
  pool: pg.Pool;
  jwt: JwtVerifier;
  mailbox: Mailbox;
  project: ProjectConfig;
  /** The public API URL, for links in e-mails and the JWT issuer. */
  apiUrl: string;
  /** Buckets that differ from `config.toml` (tests use generous or tight ones). */
  rateLimits: Partial<AuthRateLimits>;
  refreshTokenReuseIntervalSeconds: number;
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The JWT roles GoTrue treats as admin (`GOTRUE_JWT_ADMIN_ROLES` default). */
const adminRoles = new Set(['service_role', 'supabase_admin']);

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
  '/reauthenticate': 'reauthentication nonces (secure_password_change)',
  '/sso': 'SAML single sign-on',
  '/user/identities': 'identity linking',
};

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
  const mfa = createMfaHandlers({
    pool,
    jwt,
    sessionSettings,
    settings: {
      maxEnrolledFactors: project.mfaMaxEnrolledFactors,
      totpEnrollEnabled: project.mfaTotpEnrollEnabled,
      totpVerifyEnabled: project.mfaTotpVerifyEnabled,
      challengeExpirySeconds: 300,
      unverifiedFactorExpirySeconds: 300,
    },
    defaultIssuer: new URL(project.siteUrl).host,
  });
  const fiveMinutes = 5 * 60_000;
  const limits: AuthRateLimits = {
    signInSignUps: { limit: project.signInSignUpsPer5Minutes, windowMs: fiveMinutes, burst: 30 },
    tokenRefresh: { limit: project.tokenRefreshPer5Minutes, windowMs: fiveMinutes, burst: 30 },
    verify: { limit: project.tokenVerificationsPer5Minutes, windowMs: fiveMinutes, burst: 30 },
    emailSent: { limit: project.emailSentPerHour, windowMs: 60 * 60_000 },
    ...options.rateLimits,
  };
  const limiters = {
    signup: createRateLimiter(limits.signInSignUps),
    recover: createRateLimiter(limits.signInSignUps),
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

  /** GoTrue's `checkPasswordStrength` (api/password.go): length first, then bcrypt's 72-byte bound. */
  function checkPasswordStrength(password: string) {
    if (password.length < project.minimumPasswordLength)
      throw authErrors.weakPassword(project.minimumPasswordLength);
    if (Buffer.byteLength(password, 'utf8') > maxPasswordBytes) throw authErrors.passwordTooLong();
  }

  /** The signed-in caller: a valid user JWT whose session still exists (api/auth.go). */
  async function authenticated(request: IncomingMessage) {
    const token = bearerToken(request);
    if (!token) throw authErrors.noAuthorization();
    let claims: VerifiedClaims;
    try {
      claims = await jwt.verify(token);
    } catch (error) {
      const reason = error instanceof InvalidJwtError ? error.message : 'unable to verify';
      throw authErrors.badJwt(`invalid JWT: unable to parse or verify signature, ${reason}`);
    }
    if (!claims.sub) throw authErrors.badJwt('invalid claim: missing sub claim');
    // Validly signed but malformed: GoTrue's 4xx bad_jwt, never a database error.
    if (!uuidPattern.test(claims.sub))
      throw authErrors.badJwt('invalid claim: sub claim must be a UUID', 400);
    if (claims.session_id !== undefined && !uuidPattern.test(String(claims.session_id))) {
      throw authErrors.badJwt('invalid claim: session_id claim must be a UUID');
    }
    if (!claims.session_id || !(await sessionExists(pool, claims.session_id)))
      throw authErrors.sessionNotFound();
    const user = await findUserById(pool, claims.sub);
    if (!user) throw new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
    return { user, sessionId: claims.session_id, claims };
  }

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

  /**
   * GoTrue honours `redirect_to` for the site URL's host name (any port), a loopback IP address (any
   * port, as GoTrue's `IsRedirectURLValid` does) or an allow-listed URL.
   */
  function allowedRedirect(requested: string | null | undefined): string {
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

  const mails: Record<LinkKind, { subject: string; heading: string; action: string }> = {
    signup: { subject: 'Confirm Your Signup', heading: 'Confirm your signup', action: 'confirm your user' },
    recovery: {
      subject: 'Reset Your Password',
      heading: 'Reset Password',
      action: 'reset the password for your user',
    },
  };

  /**
   * Mails a link of `kind`: the per-user `max_frequency` first, then the project's `email_sent` budget
   * (GoTrue's `sendConfirmation` / `sendPasswordRecovery` in api/mail.go).
   */
  async function mailLink(
    user: { id: string; email: string },
    kind: LinkKind,
    redirectTo: string | null | undefined,
    pkce: CodeChallenge | undefined,
  ) {
    const token = await issueLinkToken(pool, user.id, kind, project.emailMaxFrequencySeconds, pkce);
    if (!allowEmail('email_functions')) throw authErrors.emailRateLimited();
    const link = new URL(`${options.apiUrl}/auth/v1/verify`);
    link.searchParams.set('token', token);
    link.searchParams.set('type', kind);
    link.searchParams.set('redirect_to', allowedRedirect(redirectTo));
    const { subject, heading, action } = mails[kind];
    mailbox.send({
      to: user.email.toLowerCase(),
      subject,
      text: `Follow this link to ${action}:\n${link.href}`,
      html: `<h2>${heading}</h2><p>Follow this link to ${action}:</p><p><a href="${link.href}">${heading}</a></p>`,
    });
  }

  /** POST /signup, in GoTrue's order (api/api.go, api/signup.go). */
  async function signUp(request: IncomingMessage, url: URL) {
    const body = await readJsonObject(request);
    const rawEmail = stringField(body, 'email') ?? '';
    const phone = stringField(body, 'phone') ?? '';
    if (rawEmail === '' && phone === '') throw authErrors.anonymousDisabled();
    limit(limiters.signup, request);
    if (!project.enableSignup) throw authErrors.signupDisabled();
    const password = stringField(body, 'password') ?? '';
    if (password === '') throw authErrors.validation('Signup requires a valid password');
    checkPasswordStrength(password);
    if (rawEmail !== '' && phone !== '') {
      throw authErrors.validation('Only an email address or phone number should be provided on signup.');
    }
    const pkce = codeChallengeOf(body);
    if (phone !== '') throw authErrors.phoneSignupsDisabled();
    if (!project.enableEmailProvider) throw authErrors.emailSignupsDisabled();
    const email = rawEmail.trim();
    if (!emailPattern.test(email)) throw authErrors.invalidEmail();
    const confirmAtOnce = !project.enableConfirmations;
    const redirectTo = url.searchParams.get('redirect_to');

    const existing = await findUserByEmail(pool, email);
    if (existing?.email_confirmed_at) {
      if (confirmAtOnce) throw authErrors.userAlreadyExists();
      // Confirmations on: an answer shaped like a new sign-up's, so the endpoint does not reveal who has
      // an account (GoTrue's `sanitizeUser`).
      const now = new Date().toISOString();
      return {
        ...userJson(existing),
        id: randomUUID(),
        role: '',
        email_confirmed_at: null,
        confirmed_at: null,
        last_sign_in_at: null,
        confirmation_sent_at: now,
        created_at: now,
        updated_at: now,
        identities: [],
        app_metadata: { provider: 'email', providers: ['email'] },
        user_metadata: objectField(body, 'data') ?? {},
      };
    }
    let userId = existing?.id;
    if (!userId) {
      try {
        userId = await insertUser(pool, {
          email,
          password,
          metadata: objectField(body, 'data') ?? {},
          confirmed: confirmAtOnce,
        });
      } catch (error) {
        // Two sign-ups racing for one address: the unique index decides.
        if ((error as { code?: string }).code === '23505') throw authErrors.userAlreadyExists();
        throw error;
      }
    }
    if (confirmAtOnce) return sessionFor(userId, request, 'password');
    await mailLink({ id: userId, email }, 'signup', redirectTo, pkce);
    const user = await findUserById(pool, userId);
    if (!user) throw authErrors.userNotFound();
    return userJson(user);
  }

  async function passwordGrant(request: IncomingMessage) {
    const body = await readJsonObject(request);
    const email = stringField(body, 'email')?.trim() ?? '';
    const phone = stringField(body, 'phone') ?? '';
    const password = stringField(body, 'password') ?? '';
    if (email !== '' && phone !== '') {
      throw new AuthError(
        422,
        'validation_failed',
        'Only an email address or phone number should be provided on login.',
      );
    }
    if (phone !== '') throw authErrors.phoneLoginsDisabled();
    if (email === '') throw authErrors.invalidCredentials();
    if (!project.enableEmailProvider) throw authErrors.emailLoginsDisabled();
    // bcrypt compares 72 bytes only; a longer password can never have been set, so it never matches.
    if (Buffer.byteLength(password, 'utf8') > maxPasswordBytes) throw authErrors.invalidCredentials();
    const user = await findUserByPassword(pool, email, password);
    if (!user) throw authErrors.invalidCredentials();
    if (!user.email_confirmed_at) throw authErrors.emailNotConfirmed();
    return sessionFor(user.id, request, 'password');
  }

  async function refreshGrant(request: IncomingMessage) {
    const presented = stringField(await readJsonObject(request), 'refresh_token');
    if (!presented) throw authErrors.refreshTokenNotFound();
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
    return sessionFor(userId, request, method);
  }

  /** GET /user: the token's audience must be the one asked for (`X-JWT-AUD`, else `authenticated`). */
  async function readUser(request: IncomingMessage) {
    const { user, claims } = await authenticated(request);
    const audience = headerValue(request, 'x-jwt-aud') ?? 'authenticated';
    const tokenAudience = Array.isArray(claims.aud) ? claims.aud[0] : claims.aud;
    if (tokenAudience !== audience) {
      throw authErrors.validation("Token audience doesn't match request audience");
    }
    return userJson(user);
  }

  /** PUT /user, as GoTrue's `UserUpdate` (api/user.go). */
  async function changeUser(request: IncomingMessage) {
    const { user, sessionId, claims } = await authenticated(request);
    const body = await readJsonObject(request);
    limit(limiters.userUpdate, request);
    const password = body.password === undefined || body.password === null ? undefined : body.password;
    if (password !== undefined) {
      if (typeof password !== 'string') throw authErrors.badJson();
      checkPasswordStrength(password);
    }
    if (body.app_metadata !== undefined && !adminRoles.has(claims.role)) {
      throw authErrors.notAdmin('Updating app_metadata requires admin privileges');
    }
    if (body.email !== undefined && body.email !== user.email) {
      throw authErrors.validation('Changing the e-mail address is not supported by the local stack');
    }
    if (body.phone !== undefined && body.phone !== '') throw authErrors.phoneSignupsDisabled();
    if (password && (await passwordMatches(pool, user.id, password))) throw authErrors.samePassword();
    await updateUser(pool, user.id, { password, metadata: objectField(body, 'data'), sessionId });
    const updated = await findUserById(pool, user.id);
    return userJson(updated ?? user);
  }

  /** POST /recover (api/recover.go): unknown addresses get the same empty answer. */
  async function recover(request: IncomingMessage, url: URL) {
    limit(limiters.recover, request);
    const body = await readJsonObject(request);
    const email = stringField(body, 'email')?.trim() ?? '';
    if (email === '') throw authErrors.validation('Password recovery requires an email');
    if (!emailPattern.test(email)) throw authErrors.invalidEmail();
    const pkce = codeChallengeOf(body);
    const user = await findUserByEmail(pool, email);
    if (!user) return {};
    await mailLink(user, 'recovery', url.searchParams.get('redirect_to'), pkce);
    return {};
  }

  /**
   * The e-mailed link (GET /verify): an implicit-flow link redirects with the session in the fragment; a
   * PKCE link with `?code=`, which the browser that asked exchanges with its verifier. Errors go in the
   * fragment, and for PKCE in the query too (api/verify.go, `prepErrorRedirectURL`).
   */
  async function verifyLink(request: IncomingMessage, response: ServerResponse, url: URL) {
    // Kept as written (no added slash), with query and fragment set as Go's url.URL would.
    const redirect = allowedRedirect(url.searchParams.get('redirect_to')).split('#')[0] ?? '';
    const [base = '', query = ''] = redirect.split('?');
    const search = new URLSearchParams(query);
    let fragment = new URLSearchParams();
    const token = url.searchParams.get('token') ?? '';
    const type = url.searchParams.get('type');
    const pkce = token.startsWith('pkce_');
    try {
      if (!isLinkKind(type))
        throw authErrors.validation(`Unsupported verification type: ${type ?? '(none)'}`);
      const redeemed = await redeemLinkToken(pool, token, type, project.emailLinkExpirySeconds);
      if (redeemed.authCode) {
        search.set('code', redeemed.authCode);
      } else {
        const session = await sessionFor(redeemed.userId, request, redeemed.method);
        fragment = new URLSearchParams({
          access_token: session.access_token,
          expires_at: String(session.expires_at),
          expires_in: String(session.expires_in),
          refresh_token: session.refresh_token,
          token_type: 'bearer',
          type,
        });
      }
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      fragment = new URLSearchParams({
        error:
          error.status === 403 ? 'access_denied' : error.status >= 500 ? 'server_error' : 'invalid_request',
        error_code: error.code,
        error_description: error.message,
      });
      if (pkce) for (const [name, value] of fragment) search.set(name, value);
    }
    const location = `${base}${search.size > 0 ? `?${search}` : ''}${fragment.size > 0 ? `#${fragment}` : ''}`;
    response.writeHead(303, { Location: location });
    response.end();
  }

  /** POST /verify with `token_hash` (supabase-js `verifyOtp`): the session in the body. */
  async function verifyOtp(request: IncomingMessage) {
    const body = await readJsonObject(request);
    const token = stringField(body, 'token_hash') ?? stringField(body, 'token');
    const type = stringField(body, 'type');
    if (!isLinkKind(type) || !token) {
      throw authErrors.validation('Only signup and recovery verification with token_hash is supported');
    }
    const { userId } = await redeemLinkToken(
      pool,
      token.replace(/^pkce_/, ''),
      type,
      project.emailLinkExpirySeconds,
    );
    return sessionFor(userId, request, 'otp');
  }

  async function logout(request: IncomingMessage, url: URL) {
    const { user, sessionId } = await authenticated(request);
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
      // GoTrue's admin roles need not be API roles (supabase_admin is not one).
      const claimed = token ? (await jwt.verifySignature(token)).role : undefined;
      role = typeof claimed === 'string' ? claimed : undefined;
    } catch {
      role = undefined;
    }
    if (!role || !adminRoles.has(role)) throw authErrors.notAdmin();
    if (!uuidPattern.test(userId)) throw authErrors.validation('user_id must be a UUID');
    const body = await readJsonObject(request);
    if (body.should_soft_delete === true) {
      throw authErrors.validation(
        'should_soft_delete is not supported by the local stack: users are deleted',
      );
    }
    const { rowCount } = await pool.query('delete from auth.users where id = $1', [userId]);
    if (rowCount === 0) throw authErrors.userNotFound();
    return {};
  }

  /** GoTrue's `/settings`: what supabase-js and dashboards read about the enabled providers. */
  function settings() {
    return {
      external: { email: project.enableEmailProvider, phone: false, anonymous_users: false },
      disable_signup: !project.enableSignup,
      mailer_autoconfirm: !project.enableConfirmations,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
    };
  }

  async function token(request: IncomingMessage, url: URL) {
    const grant = url.searchParams.get('grant_type');
    if (grant !== 'password' && grant !== 'refresh_token' && grant !== 'pkce') {
      throw grant === 'id_token' || grant === 'web3'
        ? authErrors.validation(`grant_type=${grant} is not supported by the local stack`)
        : authErrors.unsupportedGrant();
    }
    limit(limiters.token, request);
    if (grant === 'password') return passwordGrant(request);
    if (grant === 'refresh_token') return refreshGrant(request);
    return pkceGrant(request);
  }

  async function route(request: IncomingMessage, response: ServerResponse, path: string, url: URL) {
    const method = request.method ?? 'GET';
    const reply = (body: unknown, status = 200) => sendJson(response, status, body, apiVersionHeader);
    if (path === '/signup' && method === 'POST') return reply(await signUp(request, url));
    if (path === '/token' && method === 'POST') return reply(await token(request, url));
    if (path === '/user' && method === 'GET') return reply(await readUser(request));
    if (path === '/user' && method === 'PUT') return reply(await changeUser(request));
    if (path === '/logout' && method === 'POST') {
      await logout(request, url);
      response.writeHead(204, apiVersionHeader);
      return response.end();
    }
    if (path === '/recover' && method === 'POST') return reply(await recover(request, url));
    if (path === '/verify') {
      limit(limiters.verify, request);
      if (method === 'GET') return verifyLink(request, response, url);
      if (method === 'POST') return reply(await verifyOtp(request));
    }
    if (path === '/settings' && method === 'GET') return reply(settings());
    if (path === '/factors' && method === 'POST') {
      const { user, sessionId } = await authenticated(request);
      return reply(await mfa.enrol({ user, sessionId }, await readJsonObject(request)));
    }
    const factor = path.match(/^\/factors\/([^/]+)(\/challenge|\/verify)?$/);
    if (factor) {
      const factorId = decodeURIComponent(factor[1] ?? '');
      const { user, sessionId } = await authenticated(request);
      const caller = { user, sessionId };
      if (factor[2] === '/challenge' && method === 'POST') {
        limit(limiters.mfaChallenge, request);
        return reply(await mfa.challenge(caller, factorId, clientAddress(request)));
      }
      if (factor[2] === '/verify' && method === 'POST') {
        limit(limiters.mfaVerify, request);
        return reply(
          await mfa.verify(caller, factorId, await readJsonObject(request), clientAddress(request)),
        );
      }
      if (!factor[2] && method === 'DELETE') return reply(await mfa.unenrol(caller, factorId));
    }
    const adminUser = path.match(/^\/admin\/users\/([^/]+)$/);
    if (adminUser && method === 'DELETE')
      return reply(await deleteUser(request, decodeURIComponent(adminUser[1] ?? '')));
    const unsupported = Object.entries(unsupportedEndpoints).find(
      ([prefix]) => path === prefix || path.startsWith(`${prefix}/`),
    );
    if (unsupported) {
      throw new AuthError(
        501,
        'not_implemented',
        `${method} ${path}: ${unsupported[1]} are not supported by the local stack`,
      );
    }
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
      if (error instanceof AuthError) return sendAuthError(request, response, error);
      throw error;
    }
  };
}
