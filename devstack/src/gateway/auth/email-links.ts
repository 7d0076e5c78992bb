import { createHash, randomInt, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { authErrors } from './errors';
import type { Queryable } from './users';

/** The mailed links the stack sends, by GoTrue's `type` and the user columns that hold them. */
export const linkKinds = {
  signup: { tokenColumn: 'confirmation_token', sentAtColumn: 'confirmation_sent_at', method: 'email/signup' },
  recovery: { tokenColumn: 'recovery_token', sentAtColumn: 'recovery_sent_at', method: 'recovery' },
} as const;
export type LinkKind = keyof typeof linkKinds;

export function isLinkKind(type: string | null | undefined): type is LinkKind {
  return type === 'signup' || type === 'recovery';
}

/** GoTrue's prefix of a link token whose flow ends in a PKCE code exchange (api/pkce.go). */
const pkcePrefix = 'pkce_';

export function hashToken(token: string) {
  return createHash('sha256').update(token).digest('hex');
}

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

/** GoTrue's `GenerateTokenHash` (internal/crypto): what a link carries, from the address and the code. */
export function emailTokenHash(email: string, code: string): string {
  return createHash('sha224').update(`${email.toLowerCase()}${code}`).digest('hex');
}

/** A mailed link's token (`TokenHash`, PKCE-prefixed when the flow ends in a code exchange) and its code. */
export interface IssuedLink {
  tokenHash: string;
  /** The six-digit code (`{{ .Token }}`) that `POST /verify {email, token}` takes instead of the link. */
  code: string;
}

/**
 * Issues a link of `kind` for the user as GoTrue's `sendConfirmation` / `sendPasswordRecovery`: a six-digit
 * code and its token hash (the link's token). Refused within `maxFrequencySeconds` of the previous one
 * (GoTrue's per-user `max_frequency`); stored hashed once more, and (PKCE) recorded with a flow state whose
 * code the link's redirect will carry.
 */
export async function issueLinkToken(
  db: Queryable,
  user: { id: string; email: string },
  kind: LinkKind,
  maxFrequencySeconds: number,
  pkce: CodeChallenge | undefined,
): Promise<IssuedLink> {
  const userId = user.id;
  const { tokenColumn, sentAtColumn, method } = linkKinds[kind];
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const token = emailTokenHash(user.email, code);
  // GoTrue refuses while `sent_at + max_frequency` is ahead and names the whole seconds left (api/errors.go).
  const { rows } = await db.query<{ wait_seconds: number | null }>(
    `with previous as (
       select extract(epoch from ${sentAtColumn} + $3 * interval '1 second' - now()) as remaining
       from auth.users where id = $1
     ), issued as (
       update auth.users set ${tokenColumn} = $2, ${sentAtColumn} = now(), updated_at = now()
       where id = $1 and coalesce((select remaining from previous), 0) <= 0
       returning id
     )
     select case when exists (select from issued) then null
            else floor(coalesce((select remaining from previous), 0))::int end as wait_seconds`,
    [userId, hashToken(token), maxFrequencySeconds],
  );
  const waitSeconds = rows[0]?.wait_seconds;
  if (waitSeconds !== null && waitSeconds !== undefined) throw authErrors.emailTooSoon(waitSeconds);
  if (!pkce) return { tokenHash: token, code };
  await db.query(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type,
       authentication_method, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, now(), now())`,
    [
      randomUUID(),
      userId,
      randomUUID(),
      pkce.method,
      pkce.challenge,
      kind === 'signup' ? 'email' : kind,
      method,
    ],
  );
  return { tokenHash: `${pkcePrefix}${token}`, code };
}

export interface RedeemedLink {
  userId: string;
  /** The session's authentication method: `otp` for an implicit-flow link, as GoTrue's verify.go. */
  method: string;
  /** PKCE: the code the redirect carries instead of a session. */
  authCode?: string;
}

/**
 * Consumes a link token (single use, `lifetimeSeconds`): a sign-up link confirms the address, a
 * recovery link too (it proved the mailbox). A PKCE link returns its flow state's code, marked issued.
 */
export async function redeemLinkToken(
  db: Queryable,
  presented: string,
  kind: LinkKind,
  lifetimeSeconds: number,
  /**
   * `POST /verify {email, token}`: `presented` is the mailed six-digit code, whose token hash with this
   * address must be the one issued (api/verify.go `verifyUserAndToken`).
   */
  email?: string,
): Promise<RedeemedLink> {
  const pkce = presented.startsWith(pkcePrefix);
  const linkToken = pkce ? presented.slice(pkcePrefix.length) : presented;
  const token = email === undefined ? linkToken : emailTokenHash(email, presented);
  const { tokenColumn, sentAtColumn, method } = linkKinds[kind];
  // Confirming marks the metadata `email_verified` (models/user.go `Confirm`); a sign-up link marks the
  // e-mail identity too (api/verify.go `signupVerify`).
  const { rows } = await db.query<{ id: string }>(
    `with redeemed as (
       update auth.users set ${tokenColumn} = '', email_confirmed_at = coalesce(email_confirmed_at, now()),
         raw_user_meta_data = case when email_confirmed_at is null
           then coalesce(raw_user_meta_data, '{}'::jsonb) || '{"email_verified": true}' else raw_user_meta_data end,
         updated_at = now()
       where ${tokenColumn} = $1 and ${tokenColumn} <> ''
         and ${sentAtColumn} > now() - $2 * interval '1 second'
         and ($4::text is null or lower(email) = lower($4))
       returning id, email
     ), identity as (
       update auth.identities i set identity_data = i.identity_data || '{"email_verified": true}', updated_at = now()
       from redeemed where $3 and i.user_id = redeemed.id and i.provider = 'email' and i.email = redeemed.email
     )
     select id from redeemed`,
    [hashToken(token), lifetimeSeconds, kind === 'signup', email ?? null],
  );
  const userId = rows[0]?.id;
  if (!userId) throw email === undefined ? authErrors.otpExpired() : authErrors.tokenExpired();
  if (!pkce) return { userId, method: 'otp' };
  // GoTrue's issueAuthCode: the user's latest flow state of this method.
  const flow = await db.query<{ auth_code: string }>(
    `update auth.flow_state set auth_code_issued_at = now(), updated_at = now()
     where id = (select id from auth.flow_state where user_id = $1 and authentication_method = $2
                 order by created_at desc limit 1)
     returning auth_code`,
    [userId, method],
  );
  const authCode = flow.rows[0]?.auth_code;
  if (!authCode) throw authErrors.noFlowStateForUser();
  return { userId, method, authCode };
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
