import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { JwtVerifier } from '../jwt';
import { inTransaction } from '../database';
import { authErrors } from './errors';
import { userJson, type UserRow } from './user-json';
import { findUserById, type Queryable } from './users';

export interface SessionSettings {
  issuer: string;
  jwtExpirySeconds: number;
  /** Seconds during which a just-rotated refresh token still returns the session's current one (GoTrue). */
  refreshTokenReuseIntervalSeconds: number;
  /** `[auth.sessions] timebox` and `inactivity_timeout` in seconds, 0 when off. */
  timeboxSeconds: number;
  inactivityTimeoutSeconds: number;
}

function newRefreshToken() {
  return randomBytes(24).toString('base64url');
}

/** One authentication of a session (GoTrue's `amr` claim entry). */
export interface AmrEntry {
  method: string;
  timestamp: number;
}

/**
 * The session's authentication methods, newest first, each with the time it happened. They belong to
 * the session (GoTrue's `mfa_amr_claims`), so a refresh keeps them: models/sessions.go
 * `CalculateAALAndAMR`.
 */
export async function sessionAmr(db: Queryable, sessionId: string): Promise<AmrEntry[]> {
  const { rows } = await db.query<AmrEntry>(
    `select authentication_method as method, floor(extract(epoch from updated_at))::int as timestamp
     from auth.mfa_amr_claims where session_id = $1 order by updated_at desc`,
    [sessionId],
  );
  return rows;
}

/** The `amr` methods of a second factor: a session with one of them is at `aal2` (models/amr.go). */
const secondFactorMethods = new Set(['totp', 'mfa/phone', 'mfa/webauthn']);

/** GoTrue's token response: `{access_token, token_type, expires_in, expires_at, refresh_token, user}`. */
export async function tokenResponse(
  jwt: JwtVerifier,
  settings: SessionSettings,
  user: UserRow,
  sessionId: string,
  refreshToken: string,
  amr: AmrEntry[],
) {
  const now = Math.floor(Date.now() / 1000);
  const expiresAt = now + settings.jwtExpirySeconds;
  const accessToken = await jwt.sign(
    {
      iss: settings.issuer,
      aud: user.aud,
      sub: user.id,
      email: user.email,
      phone: '',
      app_metadata: user.raw_app_meta_data ?? {},
      user_metadata: user.raw_user_meta_data ?? {},
      role: user.role,
      aal: amr.some((entry) => secondFactorMethods.has(entry.method)) ? 'aal2' : 'aal1',
      amr,
      session_id: sessionId,
      is_anonymous: user.is_anonymous,
    },
    expiresAt,
  );
  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: settings.jwtExpirySeconds,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: userJson(user),
  };
}

/** A new session with its first refresh token, authenticated by `method` (`password`, `otp`, …). */
export async function startSession(
  db: Queryable,
  userId: string,
  method: string,
  userAgent: string | undefined,
  ip: string,
) {
  const sessionId = randomUUID();
  const refreshToken = newRefreshToken();
  await db.query(
    `with session as (
       insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip)
       values ($1, $2, now(), now(), 'aal1', $4, $5::inet)
       returning id
     ), amr as (
       insert into auth.mfa_amr_claims (session_id, created_at, updated_at, authentication_method)
       select id, now(), now(), $6 from session
     ), signed_in as (
       update auth.users set last_sign_in_at = now() where id = $2
     )
     insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, session_id)
     values ('00000000-0000-0000-0000-000000000000', $3, $2::text, false, now(), now(), $1)`,
    [sessionId, userId, refreshToken, userAgent ?? null, ipOrNull(ip), method],
  );
  return { sessionId, refreshToken };
}

function ipOrNull(ip: string) {
  return /^[\d.:a-f]+$/i.test(ip) ? ip.replace(/^::ffff:/, '') : null;
}

interface RefreshTokenRow {
  id: string;
  token: string;
  revoked: boolean;
  updated_at: Date;
  session_id: string;
  user_id: string;
}

/**
 * Rotates a refresh token as GoTrue's `RefreshTokenGrant` (api/token_refresh.go): the presented token is
 * revoked and a child issued; a revoked token is answered as described below.
 */
export async function rotateRefreshToken(pool: pg.Pool, presented: string, settings: SessionSettings) {
  const rotated = await inTransaction(pool, async (client) => {
    // models/sessions.go `CheckValidity`: past the time-box from its start, or idle longer than the
    // inactivity time-out since its last refresh (the token's issue when never refreshed).
    const { rows } = await client.query<
      RefreshTokenRow & { past_timebox: boolean; timed_out: boolean; banned: boolean }
    >(
      `select t.id, t.token, t.revoked, t.updated_at, t.session_id, t.user_id,
         coalesce((select banned_until > now() from auth.users where id = s.user_id), false) as banned,
         $2 > 0 and now() > s.created_at + make_interval(secs => $2) as past_timebox,
         $3 > 0 and now() > coalesce(s.refreshed_at, greatest(t.updated_at, s.created_at))
           + make_interval(secs => $3) as timed_out
       from auth.refresh_tokens t join auth.sessions s on s.id = t.session_id
       where t.token = $1 for update of t`,
      [presented, settings.timeboxSeconds, settings.inactivityTimeoutSeconds],
    );
    const token = rows[0];
    if (!token) throw authErrors.refreshTokenNotFound();
    // internal/tokens/service.go: a banned person's refresh is refused before anything rotates.
    if (token.banned) throw authErrors.userBanned(400, 'Invalid Refresh Token: User Banned');
    if (token.past_timebox) throw authErrors.sessionExpired();
    if (token.timed_out) throw authErrors.sessionExpired(' (Inactivity)');
    let refreshToken: string | undefined;
    if (token.revoked) {
      const active = await client.query<{ token: string; parent: string | null }>(
        `select token, parent from auth.refresh_tokens where session_id = $1 and not revoked order by id desc limit 1`,
        [token.session_id],
      );
      // The parent of the current token: the client lost the answer of its last refresh; it gets that
      // answer's token again, however late.
      if (active.rows[0]?.parent === token.token) refreshToken = active.rows[0].token;
      // Any other revoked token: accepted (a new child) only within the reuse interval from its issue
      // (GoTrue never moves `updated_at` on revoking); later it is theft and every token of the session
      // is revoked, the session itself left to expire with its access token. The revocation commits; the
      // caller is refused after it.
      else if (Date.now() - token.updated_at.getTime() > settings.refreshTokenReuseIntervalSeconds * 1000) {
        await client.query(
          'update auth.refresh_tokens set revoked = true where session_id = $1 and not revoked',
          [token.session_id],
        );
        return undefined;
      }
    }
    if (!refreshToken) {
      refreshToken = newRefreshToken();
      await client.query(
        `with revoked as (update auth.refresh_tokens set revoked = true where id = $1)
         insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
         values ('00000000-0000-0000-0000-000000000000', $2, $3, false, now(), now(), $4, $5)`,
        [token.id, refreshToken, token.user_id, token.token, token.session_id],
      );
    }
    await client.query('update auth.sessions set refreshed_at = now(), updated_at = now() where id = $1', [
      token.session_id,
    ]);
    const user = await findUserById(client, token.user_id);
    if (!user) throw authErrors.refreshTokenNotFound();
    const amr = await sessionAmr(client, token.session_id);
    return { user, sessionId: token.session_id, refreshToken, amr };
  });
  if (!rotated) throw authErrors.refreshTokenAlreadyUsed();
  return rotated;
}

export async function sessionExists(db: Queryable, sessionId: string): Promise<boolean> {
  const { rowCount } = await db.query('select 1 from auth.sessions where id = $1', [sessionId]);
  return rowCount === 1;
}

/** GoTrue's logout scopes: `global` ends every session of the user, `local` this one, `others` the rest. */
export async function endSessions(
  db: Queryable,
  userId: string,
  sessionId: string | null,
  scope: 'global' | 'local' | 'others',
) {
  await db.query(
    `delete from auth.sessions where user_id = $1
       and case $3 when 'local' then id = $2 when 'others' then id <> $2 else true end`,
    [userId, sessionId, scope],
  );
}
