import { createHash, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { authErrors } from './errors';
import type { Queryable } from './users';

/** PKCE flows of mailed links (api/pkce.go, models/flow_state.go). */

export interface CodeChallenge {
  challenge: string;
  method: 's256' | 'plain';
}

/**
 * `code_challenge` and `code_challenge_method` of a request, validated as GoTrue's `validatePKCEParams`
 * (api/pkce.go): both or neither, 43–128 unreserved characters, method s256 or plain.
 */
export function codeChallengeOf(body: Record<string, unknown>): CodeChallenge | undefined {
  const challenge = typeof body.code_challenge === 'string' ? body.code_challenge : '';
  const method = typeof body.code_challenge_method === 'string' ? body.code_challenge_method : '';
  if ((challenge === '') !== (method === '')) {
    throw authErrors.validation('PKCE flow requires code_challenge_method and code_challenge');
  }
  if (challenge === '') return undefined;
  if (challenge.length < 43 || challenge.length > 128) {
    throw authErrors.validation('code challenge has to be between 43 and 128 characters');
  }
  if (!/^[a-zA-Z._~0-9-]+$/.test(challenge)) {
    throw authErrors.validation(
      'code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes',
    );
  }
  const normalised = method.toLowerCase();
  if (normalised !== 's256' && normalised !== 'plain') {
    throw authErrors.validation(`unsupported code_challenge method "${method}"`);
  }
  return { challenge, method: normalised };
}

/** Records a flow whose mailed link's redirect will carry a code (GoTrue's `generateFlowState`). */
export async function createFlowState(
  db: Queryable,
  userId: string,
  pkce: CodeChallenge,
  providerType: string,
  method: string,
) {
  await db.query(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type,
       authentication_method, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, now(), now())`,
    [randomUUID(), userId, randomUUID(), pkce.method, pkce.challenge, providerType, method],
  );
}

/** GoTrue's `issueAuthCode`: the code of the user's latest flow of this method, marked issued. */
export async function issueAuthCode(db: Queryable, userId: string, method: string): Promise<string> {
  const flow = await db.query<{ auth_code: string }>(
    `update auth.flow_state set auth_code_issued_at = now(), updated_at = now()
     where id = (select id from auth.flow_state where user_id = $1 and authentication_method = $2
                 order by created_at desc limit 1)
     returning auth_code`,
    [userId, method],
  );
  const authCode = flow.rows[0]?.auth_code;
  if (!authCode) throw authErrors.noFlowStateForUser();
  return authCode;
}

function challengeOfVerifier(verifier: string, method: string): string {
  return method === 's256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
}

/**
 * `grant_type=pkce`, as GoTrue's `PKCE` grant (api/token.go): the code's flow state must exist, be younger
 * than the flow-state expiry (counted from its creation) and match the verifier; it is then used up.
 * Returns the user and the method the session records.
 */
export async function exchangeAuthCode(
  pool: pg.Pool,
  authCode: string,
  codeVerifier: string,
  expirySeconds: number,
): Promise<{ userId: string; method: string }> {
  if (!authCode || !codeVerifier) {
    throw authErrors.validation('invalid request: both auth code and code verifier should be non-empty');
  }
  const { rows } = await pool.query<{
    id: string;
    user_id: string | null;
    code_challenge: string;
    code_challenge_method: string;
    authentication_method: string;
    expired: boolean;
  }>(
    `select id, user_id, code_challenge, code_challenge_method::text, authentication_method,
       now() > created_at + $2 * interval '1 second' as expired
     from auth.flow_state where auth_code = $1`,
    [authCode, expirySeconds],
  );
  const flow = rows[0];
  if (!flow?.user_id) throw authErrors.flowStateNotFound();
  if (flow.expired) throw authErrors.flowStateExpired();
  if (challengeOfVerifier(codeVerifier, flow.code_challenge_method) !== flow.code_challenge) {
    throw authErrors.badCodeVerifier();
  }
  // Used once: of two exchanges racing for one code, only the one that deletes it goes on.
  const used = await pool.query('delete from auth.flow_state where id = $1', [flow.id]);
  if (used.rowCount !== 1) throw authErrors.flowStateNotFound();
  return { userId: flow.user_id, method: flow.authentication_method };
}
