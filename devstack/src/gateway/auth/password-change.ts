import { createHash, randomInt } from 'node:crypto';
import type { AuthContext, Caller } from './context';
import { AuthError, authErrors } from './errors';
import type { AuthRoute } from './route';
import { sessionAmr, type AmrEntry } from './sessions';
import type { UserRow } from './user-json';
import { passwordMatches, type Queryable } from './users';

/**
 * The checks hosted Auth makes before `PUT /user` sets a password or moves an address (supabase/auth
 * internal/api/user.go `UserUpdate`, internal/api/reauthenticate.go), with its statuses, codes and messages.
 */
export const passwordChangeErrors = {
  // PR 1766: a factor holder changes password, e-mail or phone from an aal2 session only.
  insufficientAal: () =>
    new AuthError(
      401,
      'insufficient_aal',
      'AAL2 session is required to update email or password when MFA is enabled.',
    ),
  // PR 2364 (`update_password_require_current_password`): one message for missing and wrong.
  currentPasswordRequired: () =>
    new AuthError(400, 'current_password_required', 'Current password required when setting new password.'),
  currentPasswordInvalid: () =>
    new AuthError(400, 'current_password_invalid', 'Current password required when setting new password.'),
  reauthenticationNeeded: () =>
    new AuthError(400, 'reauthentication_needed', 'Password update requires reauthentication'),
  nonceInvalid: () => new AuthError(422, 'reauthentication_not_valid', 'Nonce has expired or is invalid'),
  emailNotConfirmed: () => new AuthError(422, 'email_not_confirmed', 'Please verify your email first.'),
};

/** Sign-ins by a mailed link or code (models/factor.go `IsRecovery`): no current password to ask for. */
const recoveryMethods = new Set(['otp', 'magiclink', 'recovery']);

export function isRecoverySession(amr: readonly AmrEntry[]): boolean {
  return amr.some((entry) => recoveryMethods.has(entry.method));
}

/** With `secure_password_change`, a session older than 24 hours needs a nonce to set a password. */
export function needsReauthentication(sessionCreatedAt: Date | undefined, now: Date): boolean {
  return !sessionCreatedAt || now.getTime() > sessionCreatedAt.getTime() + 24 * 60 * 60_000;
}

/** GoTrue's `GenerateTokenHash`: SHA-224 of the address and the code, in hex (internal/crypto). */
export function nonceHash(email: string, nonce: string): string {
  return createHash('sha224').update(`${email}${nonce}`).digest('hex');
}

export function hasVerifiedFactor(user: UserRow): boolean {
  return (user.factors ?? []).some((factor) => factor.status === 'verified');
}

async function sessionOf(db: Queryable, sessionId: string | undefined) {
  if (!sessionId) return { session: undefined, amr: [] };
  const { rows } = await db.query<{ aal: string | null; created_at: Date }>(
    'select aal, created_at from auth.sessions where id = $1',
    [sessionId],
  );
  return { session: rows[0], amr: await sessionAmr(db, sessionId) };
}

/** Uses up the mailed nonce if it is the caller's and still fresh (`verifyReauthentication`). */
async function consumeNonce(db: Queryable, user: UserRow, nonce: string, lifetimeSeconds: number) {
  const { rowCount } = await db.query(
    `update auth.users set reauthentication_token = '', reauthentication_sent_at = null, updated_at = now()
     where id = $1 and reauthentication_token <> '' and reauthentication_token = $2
       and reauthentication_sent_at > now() - make_interval(secs => $3)`,
    [user.id, nonceHash(user.email, nonce), lifetimeSeconds],
  );
  if (rowCount !== 1) throw passwordChangeErrors.nonceInvalid();
}

export interface RequestedChange {
  password?: string;
  email?: string;
  phone?: string;
  nonce?: string;
  currentPassword?: string;
}

/** GoTrue's order: the factor holder's aal2, then the nonce, then the current password, then sameness. */
export function createPasswordChangeChecks(context: AuthContext) {
  const { pool, project } = context;

  return async function checkChange({ user, sessionId }: Caller, change: RequestedChange) {
    const { session, amr } = await sessionOf(pool, sessionId);
    const movesAddress =
      (change.email !== undefined && change.email !== '' && change.email !== user.email) ||
      (change.phone !== undefined && change.phone !== '');
    if (hasVerifiedFactor(user) && session?.aal !== 'aal2' && (change.password || movesAddress))
      throw passwordChangeErrors.insufficientAal();
    if (change.password === undefined) return;
    if (project.securePasswordChange && needsReauthentication(session?.created_at, new Date())) {
      if (!change.nonce) throw passwordChangeErrors.reauthenticationNeeded();
      await consumeNonce(pool, user, change.nonce, project.emailLinkExpirySeconds);
    }
    if (change.password === '') return;
    if (project.requireCurrentPassword && !isRecoverySession(amr)) {
      if (!change.currentPassword) throw passwordChangeErrors.currentPasswordRequired();
      if (!(await passwordMatches(pool, user.id, change.currentPassword)))
        throw passwordChangeErrors.currentPasswordInvalid();
    }
    if (await passwordMatches(pool, user.id, change.password)) throw authErrors.samePassword();
  };
}

/** GET /reauthenticate: mails a six-digit nonce that `PUT /user {password, nonce}` then uses up. */
export function reauthenticationRoutes(context: AuthContext): AuthRoute[] {
  const { pool, project, mailbox } = context;
  return [
    {
      method: 'GET',
      path: '/reauthenticate',
      handle: async ({ request }) => {
        const { user } = await context.authenticated(request);
        if (!user.email_confirmed_at) throw passwordChangeErrors.emailNotConfirmed();
        const nonce = String(randomInt(0, 1_000_000)).padStart(6, '0');
        const { rows } = await pool.query<{ wait_seconds: number | null }>(
          `with previous as (
             select extract(epoch from reauthentication_sent_at + make_interval(secs => $3) - now()) as remaining
             from auth.users where id = $1
           ), issued as (
             update auth.users set reauthentication_token = $2, reauthentication_sent_at = now()
             where id = $1 and coalesce((select remaining from previous), 0) <= 0
             returning id
           )
           select case when exists (select from issued) then null
                  else floor((select remaining from previous))::int end as wait_seconds`,
          [user.id, nonceHash(user.email, nonce), project.emailMaxFrequencySeconds],
        );
        const waitSeconds = rows[0]?.wait_seconds;
        if (waitSeconds !== null && waitSeconds !== undefined) throw authErrors.emailTooSoon(waitSeconds);
        if (!context.allowEmail('email_functions')) throw authErrors.emailRateLimited();
        // GoTrue's ReauthenticateMail (templatemailer.go).
        const mail = context.mailTemplates.reauthentication.render({
          SiteURL: project.siteUrl,
          Email: user.email,
          Token: nonce,
          Data: user.raw_user_meta_data ?? {},
        });
        mailbox.send({ to: user.email.toLowerCase(), ...mail });
        return {};
      },
    },
  ];
}
