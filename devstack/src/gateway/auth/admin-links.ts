import type { IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { inTransaction } from '../database';
import type { ProjectConfig } from '../project-config';
import { requestAud, validEmail, type AuthContext } from './context';
import { emailTokenHash, hashToken, issueLinkToken, newEmailCode, type LinkKind } from './email-links';
import { AuthError, authErrors } from './errors';
import { allowedRedirect } from './redirects';
import { objectField, readJsonObject, stringField } from './request-body';
import type { AuthRoute } from './route';
import { findUserByEmail, insertUser, type Queryable } from './users';

interface AdminHelpers {
  requireAdmin: (request: IncomingMessage) => Promise<JWTPayload>;
  answerUser: (db: Queryable, userId: string) => Promise<object>;
  project: ProjectConfig;
}

const linkTypes = [
  'signup',
  'invite',
  'magiclink',
  'recovery',
  'email_change_current',
  'email_change_new',
] as const;
type GeneratedLinkType = (typeof linkTypes)[number];

/**
 * POST /admin/generate_link, as GoTrue's `adminGenerateLink` (api/mail.go): the link a mail would carry,
 * answered instead of mailed, with its six-digit code and `hashed_token` (SHA-224 of address and code),
 * either of which `verifyOtp` takes. A magic link for an unknown address is a sign-up link for a new user;
 * a sign-up or invitation makes the user.
 */
export function generateLinkRoute(
  context: AuthContext,
  { requireAdmin, answerUser, project }: AdminHelpers,
): AuthRoute {
  const { pool, apiUrl } = context;

  async function generateLink(request: IncomingMessage, claims: JWTPayload) {
    const body = await readJsonObject(request);
    const email = validEmail(stringField(body, 'email') ?? '');
    const redirectTo = allowedRedirect(project, stringField(body, 'redirect_to'));
    const requested = stringField(body, 'type') ?? '';
    let type = requested;
    let password = stringField(body, 'password') ?? '';
    const metadata = objectField(body, 'data');
    const aud = requestAud(request, claims);
    const existing = await findUserByEmail(pool, email);
    const user = existing?.aud === aud ? existing : undefined;
    if (!user) {
      if (type === 'magiclink') {
        type = 'signup';
        password = randomBytes(48).toString('base64url');
      } else if (type === 'recovery' || type === 'email_change_current' || type === 'email_change_new') {
        throw new AuthError(404, 'user_not_found', 'User with this email not found');
      } else if (type === 'signup') {
        if (password === '') throw authErrors.validation('Signup requires a valid password');
        context.checkPasswordStrength(password);
      }
    }
    if (!(linkTypes as readonly string[]).includes(type))
      throw authErrors.validation(`Invalid email action link type requested: ${type}`);
    const linkType = type as GeneratedLinkType;

    const { userId, linkToken, otp, hashedToken } = await inTransaction(pool, async (client) => {
      if (linkType === 'email_change_current' || linkType === 'email_change_new') {
        if (!user) throw authErrors.userNotFound();
        const newEmail = validEmail(stringField(body, 'new_email') ?? '');
        const taken = await client.query('select 1 from auth.users where lower(email) = $1 and id <> $2', [
          newEmail,
          user.id,
        ]);
        if (taken.rowCount) throw authErrors.emailExists();
        // Secure e-mail change is on (`double_confirm_changes`): each address gets its own token.
        const code = newEmailCode();
        const currentHash = emailTokenHash(email, code);
        const token = linkType === 'email_change_current' ? currentHash : emailTokenHash(newEmail, code);
        const column =
          linkType === 'email_change_current' ? 'email_change_token_current' : 'email_change_token_new';
        await client.query(
          `update auth.users set email_change = $2, email_change_sent_at = now(), email_change_confirm_status = 0,
             ${column} = $3, updated_at = now() where id = $1`,
          [user.id, newEmail, hashToken(token)],
        );
        return { userId: user.id, linkToken: token, otp: code, hashedToken: currentHash };
      }
      let id = user?.id;
      if (linkType === 'signup' || linkType === 'invite') {
        if (user?.email_confirmed_at) throw authErrors.emailExists();
        if (id && metadata && linkType === 'signup') {
          await client.query(
            `update auth.users set raw_user_meta_data = (coalesce(raw_user_meta_data, '{}') || $2::jsonb)
               - array(select key from jsonb_each($2::jsonb) where value = 'null'::jsonb) where id = $1`,
            [id, JSON.stringify(metadata)],
          );
        }
        id ??= await insertUser(client, {
          email,
          password: linkType === 'signup' ? password : null,
          metadata: metadata ?? {},
          confirmed: false,
        });
        if (linkType === 'invite')
          await client.query('update auth.users set invited_at = now() where id = $1', [id]);
      }
      if (!id) throw authErrors.userNotFound();
      const kind: LinkKind = linkType;
      // No `max_frequency` for the admin: nothing is mailed.
      const issued = await issueLinkToken(client, { id, email }, kind, 0, undefined);
      return { userId: id, linkToken: issued.tokenHash, otp: issued.code, hashedToken: issued.tokenHash };
    }).catch((error: unknown) => {
      if ((error as { code?: string }).code === '23505') throw authErrors.emailExists();
      throw error;
    });

    const link = new URL(`${apiUrl}/auth/v1/verify`);
    link.searchParams.set('token', linkToken);
    link.searchParams.set('type', linkType.startsWith('email_change') ? 'email_change' : linkType);
    link.searchParams.set('redirect_to', redirectTo);
    return {
      ...(await answerUser(pool, userId)),
      action_link: link.href,
      email_otp: otp,
      hashed_token: hashedToken,
      verification_type: linkType,
      redirect_to: redirectTo,
    };
  }

  return {
    method: 'POST',
    path: '/admin/generate_link',
    handle: async ({ request }) => generateLink(request, await requireAdmin(request)),
  };
}
