import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { inTransaction } from '../database';
import { headerValue } from '../http';
import type { RequireAdmin } from './admin-credentials';
import { requestAud, validEmail, type AuthContext } from './context';
import { AuthError, authErrors } from './errors';
import { codeChallengeOf } from './flow-state';
import type { LinkMailer } from './links';
import { objectField, readJsonObject, stringField, type JsonObject } from './request-body';
import type { AuthRoute } from './route';
import type { SignUp } from './signup';
import { userJson } from './user-json';
import { findUserByEmail, findUserById, insertUser } from './users';

/**
 * Sign-in links and codes by e-mail and invitations: POST /otp (api/otp.go), POST /magiclink
 * (api/magic_link.go) and POST /invite (api/invite.go), mailed with the project's templates.
 */
export function otpRoutes(
  context: AuthContext,
  { links, signUp, requireAdmin }: { links: LinkMailer; signUp: SignUp; requireAdmin: RequireAdmin },
): AuthRoute[] {
  const { pool, project } = context;

  /** The user of an address in the request's audience (`FindUserByEmailAndAudience`). */
  async function userInAudience(request: IncomingMessage, email: string) {
    const user = await findUserByEmail(pool, email);
    return user?.aud === (headerValue(request, 'x-jwt-aud') || 'authenticated') ? user : undefined;
  }

  /**
   * GoTrue's `MagicLink`: a confirmed user is mailed a magic link; an unknown or unconfirmed address is
   * signed up with a random password — mailed the confirmation link, or (confirmations off) confirmed at
   * once and then mailed a magic link.
   */
  async function magicLink(
    request: IncomingMessage,
    body: JsonObject,
    redirectTo: string | null,
  ): Promise<object> {
    if (!project.enableEmailProvider) throw authErrors.emailLoginsDisabled();
    const rawEmail = stringField(body, 'email') ?? '';
    if (rawEmail === '') throw new AuthError(422, 'validation_failed', 'Password recovery requires an email');
    const email = validEmail(rawEmail);
    const pkce = codeChallengeOf(body);
    const data = objectField(body, 'data') ?? {};
    const user = await userInAudience(request, email);
    if (!user?.email_confirmed_at) {
      // crypto.GeneratePassword(…, 33): nobody knows it; the mailed link signs in.
      const password = randomBytes(33).toString('base64url');
      await signUp(request, { ...body, email, password, data }, redirectTo);
      if (!project.enableConfirmations) return magicLink(request, { ...body, email, data }, redirectTo);
      return {};
    }
    const { id, raw_user_meta_data: metadata } = user;
    await links.mail({ id, email, metadata: metadata ?? {} }, 'magiclink', redirectTo, pkce);
    return {};
  }

  /** GoTrue's `Otp`: by e-mail a magic link, whose mail also carries the six-digit code. */
  async function otp(request: IncomingMessage, redirectTo: string | null) {
    const body = await readJsonObject(request);
    const email = stringField(body, 'email') ?? '';
    const phone = stringField(body, 'phone') ?? '';
    if (email !== '' && phone !== '')
      throw authErrors.validation('Only an email address or phone number should be provided');
    if (email !== '' && (stringField(body, 'channel') ?? '') !== '')
      throw authErrors.validation('Channel should only be specified with Phone OTP');
    codeChallengeOf(body);
    // `create_user` defaults to true; false refuses an address nobody has (`shouldCreateUser`).
    if (body.create_user === false) {
      const known = email !== '' && (await userInAudience(request, validEmail(email)));
      if (!known) throw new AuthError(422, 'otp_disabled', 'Signups not allowed for otp');
    }
    if (email !== '') return magicLink(request, body, redirectTo);
    if (phone !== '') throw new AuthError(400, 'phone_provider_disabled', 'Unsupported phone provider');
    throw authErrors.validation('One of email or phone must be set');
  }

  /** GoTrue's `Invite`: a new user without a password (or an unconfirmed one) mailed an invitation. */
  async function invite(request: IncomingMessage, redirectTo: string | null) {
    const claims = await requireAdmin(request);
    const body = await readJsonObject(request);
    const email = validEmail(stringField(body, 'email') ?? '');
    const aud = requestAud(request, claims);
    const existing = await findUserByEmail(pool, email);
    const user = existing?.aud === aud ? existing : undefined;
    if (user?.email_confirmed_at) throw authErrors.emailExists();
    const userId = await inTransaction(pool, async (client) => {
      const metadata = objectField(body, 'data') ?? {};
      const id =
        user?.id ?? (await insertUser(client, { email, password: null, metadata, confirmed: false }));
      await links.mail(
        { id, email, metadata: user?.raw_user_meta_data ?? metadata },
        'invite',
        redirectTo,
        undefined,
        client,
      );
      await client.query('update auth.users set invited_at = now() where id = $1', [id]);
      return id;
    }).catch((error: unknown) => {
      if ((error as { code?: string }).code === '23505') throw authErrors.emailExists();
      throw error;
    });
    const invited = await findUserById(pool, userId);
    if (!invited) throw authErrors.userNotFound();
    return userJson(invited);
  }

  const redirectOf = (url: URL) => url.searchParams.get('redirect_to');
  return [
    {
      method: 'POST',
      path: '/otp',
      handle: async ({ request, url }) => {
        context.limit(context.limiters.otp, request);
        return otp(request, redirectOf(url));
      },
    },
    {
      method: 'POST',
      path: '/magiclink',
      handle: async ({ request, url }) => {
        context.limit(context.limiters.magicLink, request);
        return magicLink(request, await readJsonObject(request), redirectOf(url));
      },
    },
    { method: 'POST', path: '/invite', handle: ({ request, url }) => invite(request, redirectOf(url)) },
  ];
}
