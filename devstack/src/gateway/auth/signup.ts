import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { emailPattern, type AuthContext } from './context';
import { codeChallengeOf } from './flow-state';
import { authErrors } from './errors';
import type { LinkMailer } from './links';
import { objectField, readJsonObject, stringField, type JsonObject } from './request-body';
import type { AuthRoute } from './route';
import { userJson, type UserRow } from './user-json';
import { findUserByEmail, findUserById, insertUser } from './users';

/**
 * The answer to a sign-up for an address that already has a confirmed account, with confirmations on:
 * shaped like a new sign-up's, so the endpoint does not reveal who has an account (GoTrue's
 * `sanitizeUser`, api/signup.go).
 */
export function sanitizedSignUp(existing: UserRow, metadata: Record<string, unknown>, now: Date) {
  return {
    // Never confirmed nor signed in: those fields are left out (`omitempty` in models/user.go).
    ...userJson({
      ...existing,
      email_confirmed_at: null,
      confirmed_at: null,
      last_sign_in_at: null,
      email_change: null,
      email_change_sent_at: null,
      confirmation_sent_at: now,
      created_at: now,
      updated_at: now,
      identities: [],
      raw_app_meta_data: { provider: 'email', providers: ['email'] },
      raw_user_meta_data: metadata,
    }),
    id: randomUUID(),
    role: '',
  };
}

/**
 * A sign-up by e-mail after the rate limit, in GoTrue's order (api/signup.go `Signup`); also what a magic
 * link for a new address runs (api/magic_link.go). `redirectTo` is the mailed link's redirect.
 */
export function createSignUp(context: AuthContext, links: LinkMailer) {
  const { pool, project } = context;

  return async function signUp(request: IncomingMessage, body: JsonObject, redirectTo: string | null) {
    const rawEmail = stringField(body, 'email') ?? '';
    const phone = stringField(body, 'phone') ?? '';
    if (!project.enableSignup) throw authErrors.signupDisabled();
    const password = stringField(body, 'password') ?? '';
    if (password === '') throw authErrors.validation('Signup requires a valid password');
    context.checkPasswordStrength(password);
    if (rawEmail !== '' && phone !== '') {
      throw authErrors.validation('Only an email address or phone number should be provided on signup.');
    }
    const pkce = codeChallengeOf(body);
    if (phone !== '') throw authErrors.phoneSignupsDisabled();
    if (!project.enableEmailProvider) throw authErrors.emailSignupsDisabled();
    const email = rawEmail.trim();
    if (!emailPattern.test(email)) throw authErrors.invalidEmail();
    const confirmAtOnce = !project.enableConfirmations;
    const metadata = objectField(body, 'data') ?? {};

    const existing = await findUserByEmail(pool, email);
    if (existing?.email_confirmed_at) {
      if (confirmAtOnce) throw authErrors.userAlreadyExists();
      return sanitizedSignUp(existing, metadata, new Date());
    }
    let userId = existing?.id;
    if (!userId) {
      try {
        userId = await insertUser(pool, { email, password, metadata, confirmed: confirmAtOnce });
      } catch (error) {
        // Two sign-ups racing for one address: the unique index decides.
        if ((error as { code?: string }).code === '23505') throw authErrors.userAlreadyExists();
        throw error;
      }
    }
    if (confirmAtOnce) {
      // An address someone was invited with, or an admin made, is confirmed by the sign-up (models/user.go
      // `Confirm`), its password left as it was.
      if (existing)
        await pool.query(
          `update auth.users set email_confirmed_at = now(), updated_at = now(),
             raw_user_meta_data = coalesce(raw_user_meta_data, '{}') || '{"email_verified": true}'
           where id = $1 and email_confirmed_at is null`,
          [userId],
        );
      return context.sessionFor(userId, request, 'password');
    }
    const stored = await findUserById(pool, userId);
    const storedMetadata = stored?.raw_user_meta_data ?? metadata;
    await links.mail({ id: userId, email, metadata: storedMetadata }, 'signup', redirectTo, pkce);
    const user = await findUserById(pool, userId);
    if (!user) throw authErrors.userNotFound();
    return userJson(user);
  };
}

export type SignUp = ReturnType<typeof createSignUp>;

/** POST /signup (api/api.go: its rate limit, then api/signup.go). */
export function signUpRoutes(context: AuthContext, signUp: SignUp): AuthRoute[] {
  return [
    {
      method: 'POST',
      path: '/signup',
      handle: async ({ request, url }) => {
        const body = await readJsonObject(request);
        if ((stringField(body, 'email') ?? '') === '' && (stringField(body, 'phone') ?? '') === '')
          throw authErrors.anonymousDisabled();
        context.limit(context.limiters.signup, request);
        return signUp(request, body, url.searchParams.get('redirect_to'));
      },
    },
  ];
}
