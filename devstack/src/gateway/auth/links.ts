import type { IncomingMessage } from 'node:http';
import { emailPattern, type AuthContext } from './context';
import { issueLinkToken, type LinkKind } from './email-links';
import { authErrors } from './errors';
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

  return [{ method: 'POST', path: '/recover', handle: ({ request, url }) => recover(request, url) }];
}
