import type pg from 'pg';
import { inTransaction } from '../database';
import type { AuthContext } from './context';
import { emailTokenHash, hashToken, newEmailCode, pkcePrefix } from './email-links';
import { authErrors } from './errors';
import { createFlowState, issueAuthCode, type CodeChallenge } from './flow-state';
import { allowedRedirect } from './redirects';
import type { Queryable } from './users';

/**
 * E-mail changes as GoTrue makes them (api/user.go `UserUpdate`, api/mail.go `sendEmailChange`,
 * api/verify.go `emailChangeVerify`): with `double_confirm_changes` (GoTrue's
 * `MAILER_SECURE_EMAIL_CHANGE_ENABLED`, on by default) both the current and the new address get a link,
 * and while confirmations are on (`enable_confirmations`, hosted's default) the change waits for both.
 */

/** What GoTrue answers after the first of two links (api/verify.go `singleConfirmationAccepted`). */
export const singleConfirmationAccepted =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';

/** GoTrue's `email_change_confirm_status`: no link followed yet, or one of two. */
const zeroConfirmation = 0;
const singleConfirmation = 1;

/**
 * Mails the links of a change to `newEmail` (the new address first, then the current one), refused within
 * `max_frequency` of the previous change mail; a PKCE flow when the request carried a code challenge.
 */
export async function requestEmailChange(
  context: AuthContext,
  user: { id: string; email: string; metadata: Record<string, unknown> },
  newEmail: string,
  redirectTo: string | null | undefined,
  pkce: CodeChallenge | undefined,
) {
  const { project, apiUrl } = context;
  const prefix = pkce ? pkcePrefix : '';
  const newCode = newEmailCode();
  const newToken = emailTokenHash(newEmail, newCode);
  const currentCode = newEmailCode();
  const currentToken = user.email === '' ? '' : emailTokenHash(user.email, currentCode);
  await inTransaction(context.pool, async (client) => {
    const { rows } = await client.query<{ wait_seconds: number | null }>(
      `with previous as (
         select extract(epoch from email_change_sent_at + $5 * interval '1 second' - now()) as remaining
         from auth.users where id = $1
       ), issued as (
         update auth.users set email_change = $2, email_change_token_new = $3, email_change_token_current = $4,
           email_change_confirm_status = ${zeroConfirmation}, email_change_sent_at = now(), updated_at = now()
         where id = $1 and coalesce((select remaining from previous), 0) <= 0
         returning id
       )
       select case when exists (select from issued) then null
              else floor(coalesce((select remaining from previous), 0))::int end as wait_seconds`,
      [
        user.id,
        newEmail,
        hashToken(newToken),
        currentToken && hashToken(currentToken),
        project.emailMaxFrequencySeconds,
      ],
    );
    const waitSeconds = rows[0]?.wait_seconds;
    if (waitSeconds !== null && waitSeconds !== undefined) throw authErrors.emailTooSoon(waitSeconds);
    if (pkce) await createFlowState(client, user.id, pkce, 'email_change', 'email_change');
    if (!context.allowEmail('email_functions')) throw authErrors.emailRateLimited();
  });
  const redirect = allowedRedirect(project, redirectTo);
  const mails = [{ to: newEmail, code: newCode, token: newToken }];
  if (currentToken !== '') mails.push({ to: user.email, code: currentCode, token: currentToken });
  for (const { to, code, token } of mails) {
    const link = new URL(`${apiUrl}/auth/v1/verify`);
    link.searchParams.set('token', `${prefix}${token}`);
    link.searchParams.set('type', 'email_change');
    link.searchParams.set('redirect_to', redirect);
    const { subject, html } = context.mailTemplates.email_change.render({
      SiteURL: project.siteUrl,
      ConfirmationURL: link.href,
      Email: user.email,
      NewEmail: newEmail,
      Token: code,
      TokenHash: `${prefix}${token}`,
      SendingTo: to,
      Data: user.metadata,
      RedirectTo: redirect,
    });
    context.mailbox.send({ to: to.toLowerCase(), subject, html });
  }
}

/** A followed e-mail change link: the change made (a session or PKCE code follows), or one of two. */
export type RedeemedEmailChange =
  { done: true; userId: string; method: string; authCode?: string } | { done: false; pkce: boolean };

/**
 * Follows a change link (its token hash) or, with `email`, the six-digit code mailed to that address
 * (api/verify.go `verifyTokenHash`, `verifyUserAndToken`, `emailChangeVerify`). The first of two links
 * only records itself; the last makes the change: the address, the e-mail identity, confirmed.
 */
export async function redeemEmailChange(
  pool: pg.Pool,
  presented: string,
  { email, lifetimeSeconds, waitForBoth }: { email?: string; lifetimeSeconds: number; waitForBoth: boolean },
): Promise<RedeemedEmailChange> {
  const pkce = presented.startsWith(pkcePrefix);
  const linkToken = pkce ? presented.slice(pkcePrefix.length) : presented;
  const token = hashToken(email === undefined ? linkToken : emailTokenHash(email, presented));
  const invalid = () => (email === undefined ? authErrors.otpExpired() : authErrors.tokenExpired());
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{
      id: string;
      email: string;
      status: number;
      banned: boolean;
      expired: boolean;
    }>(
      `select id, coalesce(email, '') as email, email_change_confirm_status as status,
         coalesce(banned_until > now(), false) as banned,
         email_change_sent_at is null or email_change_sent_at < now() - $3 * interval '1 second' as expired
       from auth.users u
       where deleted_at is null and (
         (email_change_token_current = $1 and ($2::text is null or lower(email) = lower($2)))
         or (email_change_token_new = $1 and ($2::text is null or lower(email_change) = lower($2))))
       for update`,
      [token, email ?? null, lifetimeSeconds],
    );
    const user = rows[0];
    if (!user) throw invalid();
    if (user.banned) throw authErrors.userBanned();
    if (user.expired) throw invalid();
    if (waitForBoth && user.status === zeroConfirmation && user.email !== '') {
      await client.query(
        `update auth.users set email_change_confirm_status = ${singleConfirmation},
           email_change_token_current = case when email_change_token_current = $2 then '' else email_change_token_current end,
           email_change_token_new = case when email_change_token_new = $2 then '' else email_change_token_new end
         where id = $1`,
        [user.id, token],
      );
      return { done: false, pkce };
    }
    await confirmEmailChange(client, user.id);
    if (!pkce) return { done: true, userId: user.id, method: 'otp' };
    const authCode = await issueAuthCode(client, user.id, 'email_change');
    return { done: true, userId: user.id, method: 'email_change', authCode };
  });
}

/**
 * models/user.go `ConfirmEmailChange`: the new address becomes the user's, confirmed (`Confirm` marks the
 * metadata), and the e-mail identity follows it, verified (made when there is none).
 */
async function confirmEmailChange(db: Queryable, userId: string) {
  await db
    .query(
      `with changed as (
         update auth.users set email = email_change, email_change = '', email_change_token_current = '',
           email_change_token_new = '', email_change_confirm_status = ${zeroConfirmation},
           email_confirmed_at = coalesce(email_confirmed_at, now()),
           raw_user_meta_data = case when email_confirmed_at is null
             then coalesce(raw_user_meta_data, '{}') || '{"email_verified": true}' else raw_user_meta_data end,
           updated_at = now()
         where id = $1 returning id, email
       ), identity as (
         update auth.identities i set updated_at = now(),
           identity_data = i.identity_data || jsonb_build_object('email', changed.email, 'email_verified', true)
         from changed where i.user_id = changed.id and i.provider = 'email' returning i.id
       )
       insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
       select id::text, id, jsonb_build_object('sub', id::text, 'email', email, 'email_verified', true,
         'phone_verified', false), 'email', now(), now(), now()
       from changed where not exists (select from identity)`,
      [userId],
    )
    .catch((error: unknown) => {
      // Someone took the address since the change was asked.
      if ((error as { code?: string }).code === '23505') throw authErrors.emailExists();
      throw error;
    });
}
