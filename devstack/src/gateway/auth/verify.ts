import type { IncomingMessage, ServerResponse } from 'node:http';
import { emailPattern, type AuthContext } from './context';
import { redeemEmailChange, singleConfirmationAccepted } from './email-change';
import { isLinkKind, redeemLinkToken, type RedeemedLink } from './email-links';
import { AuthError, authErrors } from './errors';
import { allowedRedirect } from './redirects';
import { readJsonObject, stringField } from './request-body';
import type { AuthRoute } from './route';

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

/** A followed link: a session (or PKCE code) to hand out, or the first of two e-mail change links. */
type Verified = RedeemedLink | { message: string };

/** GET and POST /verify (api/verify.go `verifyGet`, `verifyPost`). */
export function verifyRoutes(context: AuthContext): AuthRoute[] {
  const { pool, project } = context;
  const lifetimeSeconds = project.emailLinkExpirySeconds;

  /**
   * Redeems a link's token, or with `email` the code mailed to it. Type `email` (`verifyOtp` after
   * `signInWithOtp`) is a sign-up's code, else a magic link's, as verify.go tries them.
   */
  async function redeem(presented: string, type: string, email?: string): Promise<Verified> {
    if (type === 'email_change') {
      const redeemed = await redeemEmailChange(pool, presented, {
        email,
        lifetimeSeconds,
        // GoTrue waits for both links unless the mailer autoconfirms (`enable_confirmations = false`).
        waitForBoth: project.enableConfirmations,
      });
      return redeemed.done ? redeemed : { message: singleConfirmationAccepted };
    }
    if (type === 'email') {
      return redeemLinkToken(pool, presented, 'signup', lifetimeSeconds, email).catch((error: unknown) => {
        if (error instanceof AuthError && error.code === 'otp_expired')
          return redeemLinkToken(pool, presented, 'magiclink', lifetimeSeconds, email);
        throw error;
      });
    }
    if (!isLinkKind(type)) throw authErrors.validation('Unsupported verification type');
    return redeemLinkToken(pool, presented, type, lifetimeSeconds, email);
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
    const type = url.searchParams.get('type') ?? '';
    const pkce = token.startsWith('pkce_');
    try {
      const verified = await redeem(token, type);
      if ('message' in verified) {
        // api/verify.go `prepRedirectURL`: in the fragment, and for a PKCE link in the query too.
        fragment.set('message', verified.message);
        if (pkce) search.set('message', verified.message);
      } else if (verified.authCode) {
        search.set('code', verified.authCode);
      } else {
        const session = await context.sessionFor(verified.userId, request, verified.method);
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
      if (pkce) for (const [name, value] of fragment) search.set(name, value);
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
    const verified =
      token === '' ? await redeem(tokenHash.replace(/^pkce_/, ''), type) : await redeem(token, type, email);
    // The first of two e-mail change links (api/verify.go `verifyPost`).
    if ('message' in verified) return { msg: verified.message, code: '200' };
    return context.sessionFor(verified.userId, request, 'otp');
  }

  return [
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
