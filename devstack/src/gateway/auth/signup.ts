import { randomUUID } from 'node:crypto';
import { emailPattern, type AuthContext } from './context';
import { codeChallengeOf } from './email-links';
import { authErrors } from './errors';
import type { LinkMailer } from './links';
import { objectField, readJsonObject, stringField } from './request-body';
import type { AuthRoute } from './route';
import { findUserByEmail, findUserById, insertUser, userJson, type UserRow } from './users';

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

/** POST /signup, in GoTrue's order (api/api.go, api/signup.go). */
export function signUpRoutes(context: AuthContext, links: LinkMailer): AuthRoute[] {
  const { pool, project } = context;

  return [
    {
      method: 'POST',
      path: '/signup',
      handle: async ({ request, url }) => {
        const body = await readJsonObject(request);
        const rawEmail = stringField(body, 'email') ?? '';
        const phone = stringField(body, 'phone') ?? '';
        if (rawEmail === '' && phone === '') throw authErrors.anonymousDisabled();
        context.limit(context.limiters.signup, request);
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
        if (confirmAtOnce) return context.sessionFor(userId, request, 'password');
        const stored = await findUserById(pool, userId);
        const storedMetadata = stored?.raw_user_meta_data ?? metadata;
        await links.mail(
          { id: userId, email, metadata: storedMetadata },
          'signup',
          url.searchParams.get('redirect_to'),
          pkce,
        );
        const user = await findUserById(pool, userId);
        if (!user) throw authErrors.userNotFound();
        return userJson(user);
      },
    },
  ];
}
