import type { IncomingMessage } from 'node:http';
import { headerValue } from '../http';
import { emailPattern, validEmail, type AuthContext } from './context';
import { requestEmailChange } from './email-change';
import { issueLinkToken, type LinkKind } from './email-links';
import { AuthError, authErrors } from './errors';
import { codeChallengeOf, type CodeChallenge } from './flow-state';
import { allowedRedirect } from './redirects';
import { readJsonObject, stringField } from './request-body';
import type { MailTemplateKind } from './mail-templates';
import type { AuthRoute } from './route';
import { findUserByEmail, type Queryable } from './users';

/** The template each link kind is mailed with (templatemailer.go `ConfirmationMail`, `InviteMail`, …). */
const templateOfKind: Record<LinkKind, MailTemplateKind> = {
  signup: 'confirmation',
  invite: 'invite',
  recovery: 'recovery',
  magiclink: 'magic_link',
};

/** Mails the links of sign-up, invitation, recovery and magic links (api/mail.go). */
export function createLinkMailer(context: AuthContext) {
  const { pool, project, mailbox, apiUrl } = context;

  /**
   * Mails a link of `kind`: the per-user `max_frequency` first (none for an invitation, which an admin
   * sends), then the project's `email_sent` budget (GoTrue's `sendConfirmation`, `sendInvite`,
   * `sendPasswordRecovery`, `sendMagicLink`). `db` is the transaction the link belongs to, if any.
   */
  async function mail(
    user: { id: string; email: string; metadata: Record<string, unknown> },
    kind: LinkKind,
    redirectTo: string | null | undefined,
    pkce: CodeChallenge | undefined,
    db: Queryable = pool,
  ) {
    const { tokenHash, code } = await issueLinkToken(
      db,
      user,
      kind,
      kind === 'invite' ? 0 : project.emailMaxFrequencySeconds,
      pkce,
    );
    if (!context.allowEmail('email_functions')) throw authErrors.emailRateLimited();
    const redirect = allowedRedirect(project, redirectTo);
    const link = new URL(`${apiUrl}/auth/v1/verify`);
    link.searchParams.set('token', tokenHash);
    link.searchParams.set('type', kind);
    link.searchParams.set('redirect_to', redirect);
    const { subject, html } = context.mailTemplates[templateOfKind[kind]].render({
      SiteURL: project.siteUrl,
      ConfirmationURL: link.href,
      Email: user.email,
      Token: code,
      TokenHash: tokenHash,
      Data: user.metadata,
      RedirectTo: redirect,
    });
    mailbox.send({ to: user.email.toLowerCase(), subject, html });
  }

  return { mail };
}

export type LinkMailer = ReturnType<typeof createLinkMailer>;

/** POST /recover (api/recover.go). */
export function linkRoutes(context: AuthContext, links: LinkMailer): AuthRoute[] {
  const { pool } = context;

  /** POST /recover: unknown addresses get the same empty answer. */
  async function recover(request: IncomingMessage, url: URL) {
    context.limit(context.limiters.recover, request);
    const body = await readJsonObject(request);
    const email = stringField(body, 'email')?.trim() ?? '';
    if (email === '') throw authErrors.validation('Password recovery requires an email');
    if (!emailPattern.test(email)) throw authErrors.invalidEmail();
    const pkce = codeChallengeOf(body);
    const user = await findUserByEmail(pool, email);
    if (user) {
      const { id, email, raw_user_meta_data: metadata } = user;
      await links.mail(
        { id, email, metadata: metadata ?? {} },
        'recovery',
        url.searchParams.get('redirect_to'),
        pkce,
      );
    }
    return {};
  }

  /**
   * POST /resend: the confirmation of an unconfirmed sign-up, or the links of a pending e-mail change,
   * mailed again (`max_frequency` applies); an unknown address, or nothing pending, gets the same `{}`.
   */
  async function resend(request: IncomingMessage, url: URL) {
    context.limit(context.limiters.resend, request);
    const body = await readJsonObject(request);
    const type = stringField(body, 'type') ?? '';
    const email = stringField(body, 'email') ?? '';
    const phone = stringField(body, 'phone') ?? '';
    if (!['signup', 'email_change', 'sms', 'phone_change'].includes(type))
      throw authErrors.validation('Missing one of these types: signup, email_change, sms, phone_change');
    const pkce = type === 'signup' || type === 'email_change' ? codeChallengeOf(body) : undefined;
    if (email === '' && type === 'signup')
      throw authErrors.validation('Type provided requires an email address');
    if (phone === '' && type === 'sms') throw authErrors.validation('Type provided requires a phone number');
    if (email !== '' && phone !== '')
      throw authErrors.validation('Only an email address or phone number should be provided.');
    if (phone !== '') throw new AuthError(400, 'phone_provider_disabled', 'Phone logins are disabled');
    if (email === '') throw authErrors.validation('Missing email address or phone number');
    if (!context.project.enableEmailProvider)
      throw new AuthError(400, 'email_provider_disabled', 'Email logins are disabled');
    const user = await findUserByEmail(pool, validEmail(email));
    if (!user || user.aud !== (headerValue(request, 'x-jwt-aud') || 'authenticated')) return {};
    const metadata = user.raw_user_meta_data ?? {};
    const redirectTo = url.searchParams.get('redirect_to');
    if (type === 'signup' && !user.email_confirmed_at)
      await links.mail({ id: user.id, email: user.email, metadata }, 'signup', redirectTo, pkce);
    if (type === 'email_change' && user.email_change)
      await requestEmailChange(
        context,
        { id: user.id, email: user.email, metadata },
        user.email_change,
        redirectTo,
        pkce,
      );
    return {};
  }

  return [
    { method: 'POST', path: '/recover', handle: ({ request, url }) => recover(request, url) },
    { method: 'POST', path: '/resend', handle: ({ request, url }) => resend(request, url) },
  ];
}
