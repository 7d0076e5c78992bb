import type { IncomingMessage, ServerResponse } from 'node:http';
import { emailPattern, type AuthContext } from './context';
import {
  codeChallengeOf,
  isLinkKind,
  issueLinkToken,
  redeemLinkToken,
  type CodeChallenge,
  type LinkKind,
} from './email-links';
import { AuthError, authErrors } from './errors';
import { allowedRedirect } from './redirects';
import { readJsonObject, stringField } from './request-body';
import type { MailTemplateKind } from './mail-templates';
import type { AuthRoute } from './route';
import { findUserByEmail } from './users';

/** The template each link kind is mailed with (GoTrue's `ConfirmationMail` / `RecoveryMail`). */
const templateOfKind: Record<LinkKind, MailTemplateKind> = { signup: 'confirmation', recovery: 'recovery' };

/**
 * Where the e-mailed link's redirect goes after a failure: GoTrue puts the error in the fragment, and for a
 * PKCE link in the query too (api/verify.go, `prepErrorRedirectURL`).
 */
export function errorRedirectParams(error: AuthError): URLSearchParams {
  return new URLSearchParams({
    error: error.status === 403 ? 'access_denied' : error.status >= 500 ? 'server_error' : 'invalid_request',
    error_code: error.code,
    error_description: error.message,
  });
}

/** Mails the links of sign-up and recovery (api/mail.go). */
export function createLinkMailer(context: AuthContext) {
  const { pool, project, mailbox, apiUrl } = context;

  /**
   * Mails a link of `kind`: the per-user `max_frequency` first, then the project's `email_sent` budget
   * (GoTrue's `sendConfirmation` / `sendPasswordRecovery`).
   */
  async function mail(
    user: { id: string; email: string; metadata: Record<string, unknown> },
    kind: LinkKind,
    redirectTo: string | null | undefined,
    pkce: CodeChallenge | undefined,
  ) {
    const { tokenHash, code } = await issueLinkToken(
      pool,
      user,
      kind,
      project.emailMaxFrequencySeconds,
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

/** POST /recover and the link's /verify, GET and POST (api/recover.go, api/verify.go). */
export function linkRoutes(context: AuthContext, links: LinkMailer): AuthRoute[] {
  const { pool, project } = context;

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
   * The e-mailed link (GET /verify): an implicit-flow link redirects with the session in the fragment; a
   * PKCE link with `?code=`, which the browser that asked exchanges with its verifier.
   */
  async function verifyLink(request: IncomingMessage, response: ServerResponse, url: URL) {
    // Kept as written (no added slash), with query and fragment set as Go's url.URL would.
    const redirect = allowedRedirect(project, url.searchParams.get('redirect_to')).split('#')[0] ?? '';
    const [base = '', query = ''] = redirect.split('?');
    const search = new URLSearchParams(query);
    let fragment = new URLSearchParams();
    const token = url.searchParams.get('token') ?? '';
    const type = url.searchParams.get('type');
    try {
      if (!isLinkKind(type))
        throw authErrors.validation(`Unsupported verification type: ${type ?? '(none)'}`);
      const redeemed = await redeemLinkToken(pool, token, type, project.emailLinkExpirySeconds);
      if (redeemed.authCode) {
        search.set('code', redeemed.authCode);
      } else {
        const session = await context.sessionFor(redeemed.userId, request, redeemed.method);
        fragment = new URLSearchParams({
          access_token: session.access_token,
          expires_at: String(session.expires_at),
          expires_in: String(session.expires_in),
          refresh_token: session.refresh_token,
          token_type: 'bearer',
          type,
        });
      }
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      fragment = errorRedirectParams(error);
      if (token.startsWith('pkce_')) for (const [name, value] of fragment) search.set(name, value);
    }
    const location = `${base}${search.size > 0 ? `?${search}` : ''}${fragment.size > 0 ? `#${fragment}` : ''}`;
    response.writeHead(303, { Location: location });
    response.end();
  }

  /**
   * POST /verify (supabase-js `verifyOtp`): `{type, token_hash}`, or `{type, email, token}` where the token
   * must be that address's (api/verify.go `Validate`, `verifyUserAndToken`); the session in the body.
   */
  async function verifyOtp(request: IncomingMessage) {
    const body = await readJsonObject(request);
    const type = stringField(body, 'type') ?? '';
    const token = stringField(body, 'token') ?? '';
    const tokenHash = stringField(body, 'token_hash') ?? '';
    const email = stringField(body, 'email')?.trim() ?? '';
    const phone = stringField(body, 'phone') ?? '';
    if (type === '') throw authErrors.validation('Verify requires a verification type');
    if ((token === '') === (tokenHash === ''))
      throw authErrors.validation('Verify requires either a token or a token hash');
    if (token !== '') {
      if (phone !== '' && email === '') throw authErrors.phoneLoginsDisabled();
      if (email === '' || phone !== '')
        throw authErrors.validation('Only an email address or phone number should be provided on verify');
      if (!emailPattern.test(email)) throw new AuthError(422, 'validation_failed', 'Invalid email format');
    } else if (email !== '' || phone !== '' || stringField(body, 'redirect_to')) {
      throw authErrors.validation('Only the token_hash and type should be provided');
    }
    if (!isLinkKind(type)) throw authErrors.validation('Unsupported verification type');
    const { userId } = await redeemLinkToken(
      pool,
      (token || tokenHash).replace(/^pkce_/, ''),
      type,
      project.emailLinkExpirySeconds,
      token === '' ? undefined : email,
    );
    return context.sessionFor(userId, request, 'otp');
  }

  return [
    { method: 'POST', path: '/recover', handle: ({ request, url }) => recover(request, url) },
    {
      method: 'GET',
      path: '/verify',
      handle: async ({ request, response, url }) => {
        context.limit(context.limiters.verify, request);
        await verifyLink(request, response, url);
        return null;
      },
    },
    {
      method: 'POST',
      path: '/verify',
      handle: async ({ request }) => {
        context.limit(context.limiters.verify, request);
        return verifyOtp(request);
      },
    },
  ];
}
