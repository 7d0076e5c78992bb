import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { inTransaction } from '../database';
import { sessionAmr } from './sessions';
import { findUserById, type Queryable } from './users';

/**
 * GoTrue's MFA tables (models/factor.go, models/challenge.go, models/sessions.go): the statements of the
 * factor API, apart from its checks.
 */
export interface FactorRow {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: string;
  status: 'unverified' | 'verified';
  secret: string;
}

export async function findFactor(db: Queryable, factorId: string, userId: string) {
  const { rows } = await db.query<FactorRow>(
    `select id, user_id, friendly_name, factor_type::text, status::text, secret
     from auth.mfa_factors where id = $1 and user_id = $2`,
    [factorId, userId],
  );
  return rows[0];
}

/** The caller's session's assurance level (models/sessions.go). */
export async function sessionIsAal2(db: Queryable, sessionId: string): Promise<boolean> {
  const { rows } = await db.query<{ aal: string | null }>('select aal from auth.sessions where id = $1', [
    sessionId,
  ]);
  return rows[0]?.aal === 'aal2';
}

/** A person's factors, after dropping unverified ones older than `unverifiedExpirySeconds`. */
export async function currentFactors(db: Queryable, userId: string, unverifiedExpirySeconds: number) {
  await db.query(
    `delete from auth.mfa_factors where status = 'unverified'
       and created_at < now() - make_interval(secs => $1)`,
    [unverifiedExpirySeconds],
  );
  const { rows } = await db.query<{ friendly_name: string | null; status: string }>(
    'select friendly_name, status::text from auth.mfa_factors where user_id = $1',
    [userId],
  );
  return rows;
}

export interface ChallengeState {
  verified: boolean;
  same_address: boolean;
  expired: boolean;
}

export async function findChallenge(
  db: Queryable,
  challengeId: string,
  factorId: string,
  address: string,
  expirySeconds: number,
): Promise<ChallengeState | undefined> {
  const { rows } = await db.query<ChallengeState>(
    `select verified_at is not null as verified, host(ip_address) = host($3::inet) as same_address,
            created_at + make_interval(secs => $4) < now() as expired
     from auth.mfa_challenges where id = $1 and factor_id = $2`,
    [challengeId, factorId, address, expirySeconds],
  );
  return rows[0];
}

/**
 * A verified code: the challenge is used, the factor verified, the session raised to `aal2` with `totp` in
 * its `amr` and a new refresh token (GoTrue's GrantRefreshTokenSwap), the person's sessions still at
 * `aal1` ended (models.InvalidateSessionsWithAALLessThan) and their other unverified factors dropped.
 */
export async function completeVerification(
  pool: pg.Pool,
  {
    challengeId,
    factorId,
    sessionId,
    userId,
  }: Record<'challengeId' | 'factorId' | 'sessionId' | 'userId', string>,
) {
  const refreshToken = randomBytes(24).toString('base64url');
  return inTransaction(pool, async (client) => {
    await client.query('update auth.mfa_challenges set verified_at = now() where id = $1', [challengeId]);
    await client.query(
      `update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1 and status = 'unverified'`,
      [factorId],
    );
    await client.query(
      `update auth.sessions set aal = 'aal2', factor_id = $2, updated_at = now() where id = $1`,
      [sessionId, factorId],
    );
    await client.query(
      `insert into auth.mfa_amr_claims (session_id, created_at, updated_at, authentication_method)
       values ($1, now(), now(), 'totp')
       on conflict (session_id, authentication_method) do update set updated_at = now()`,
      [sessionId],
    );
    await client.query(
      `with current as (
         update auth.refresh_tokens set revoked = true, updated_at = now()
         where id = (select id from auth.refresh_tokens where session_id = $1 and not revoked order by id desc limit 1)
         returning token
       )
       insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
       values ('00000000-0000-0000-0000-000000000000', $2, $3, false, now(), now(), (select token from current), $1)`,
      [sessionId, refreshToken, userId],
    );
    await client.query(
      `delete from auth.sessions where user_id = $1 and id <> $2 and coalesce(aal, 'aal1') = 'aal1'`,
      [userId, sessionId],
    );
    await client.query(
      `delete from auth.mfa_factors where user_id = $1 and factor_type = 'totp' and status = 'unverified'`,
      [userId],
    );
    return {
      refreshToken,
      user: await findUserById(client, userId),
      amr: await sessionAmr(client, sessionId),
    };
  });
}

/** Deletes a factor; the sessions it raised drop to `aal1` and lose `totp` from their `amr`. */
export async function removeFactor(db: Queryable, factorId: string) {
  await db.query(
    `with downgraded as (
       update auth.sessions set aal = 'aal1', factor_id = null, updated_at = now()
       where factor_id = $1 returning id
     ), claims as (
       delete from auth.mfa_amr_claims where authentication_method = 'totp'
         and session_id in (select id from downgraded)
     )
     delete from auth.mfa_factors where id = $1`,
    [factorId],
  );
}
