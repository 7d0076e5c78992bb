import { createHash, randomInt } from 'node:crypto';
import { authErrors } from './errors';
import { createFlowState, issueAuthCode, type CodeChallenge } from './flow-state';
import type { Queryable } from './users';

/**
 * The e-mailed links, by GoTrue's verification `type` and the user columns that hold them (api/verify.go):
 * an invitation is confirmed as a sign-up is, a magic link is redeemed as a recovery link is.
 */
export const linkKinds = {
  signup: { tokenColumn: 'confirmation_token', sentAtColumn: 'confirmation_sent_at', method: 'email/signup' },
  invite: { tokenColumn: 'confirmation_token', sentAtColumn: 'confirmation_sent_at', method: 'invite' },
  recovery: { tokenColumn: 'recovery_token', sentAtColumn: 'recovery_sent_at', method: 'recovery' },
  magiclink: { tokenColumn: 'recovery_token', sentAtColumn: 'recovery_sent_at', method: 'magiclink' },
} as const;
export type LinkKind = keyof typeof linkKinds;

/** The verification types of the links in `linkKinds`. */
export function isLinkKind(type: string | null | undefined): type is LinkKind {
  return type === 'signup' || type === 'invite' || type === 'recovery' || type === 'magiclink';
}

/** GoTrue's prefix of a link token whose flow ends in a PKCE code exchange (api/pkce.go). */
export const pkcePrefix = 'pkce_';

export function hashToken(token: string) {
  return createHash('sha256').update(token).digest('hex');
}

/** GoTrue's `GenerateOtp` with the default `otp_length` of 6. */
export function newEmailCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
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
  const code = newEmailCode();
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
  await createFlowState(db, userId, pkce, kind === 'signup' || kind === 'invite' ? 'email' : kind, method);
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
  // GoTrue finds the link's user, refuses a banned one, and only then looks at the link's age.
  const holder = await db.query<{ banned: boolean }>(
    `select coalesce(banned_until > now(), false) as banned from auth.users
     where ${tokenColumn} = $1 and ${tokenColumn} <> '' and ($2::text is null or lower(email) = lower($2))`,
    [hashToken(token), email ?? null],
  );
  if (holder.rows[0]?.banned) throw authErrors.userBanned();
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
    [hashToken(token), lifetimeSeconds, kind === 'signup' || kind === 'invite', email ?? null],
  );
  const userId = rows[0]?.id;
  if (!userId) throw email === undefined ? authErrors.otpExpired() : authErrors.tokenExpired();
  if (!pkce) return { userId, method: 'otp' };
  const authCode = await issueAuthCode(db, userId, method);
  return { userId, method, authCode };
}
