import type { IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';
import { inTransaction } from '../database';
import type { JWTPayload } from 'jose';
import type { RequireAdmin } from './admin-credentials';
import { adminFactorRoutes } from './admin-factors';
import { generateLinkRoute } from './admin-links';
import { listUsersPage } from './admin-user-list';
import {
  applyAdminChanges,
  banDurationOf,
  loadAdminUser,
  refusePhone,
  softDeleteUser,
} from './admin-user-store';
import { requestAud, uuidPattern, validEmail, type AuthContext } from './context';
import { AuthError, authErrors, maxPasswordBytes } from './errors';
import { objectField, readJsonObject, stringField } from './request-body';
import type { AuthRoute } from './route';
import { userJson } from './user-json';
import { findUserById, insertUser, updateUser, type Queryable } from './users';

const nilUuid = '00000000-0000-0000-0000-000000000000';
const bcryptHash = /^\$2[aby]?\$\d{2}\$[./A-Za-z0-9]{53}$/;

/**
 * GoTrue's admin API (api/admin.go, api/mail.go `adminGenerateLink`), behind `requireAdminCredentials`:
 * users (create, list, get, update, delete), their factors, and generated links.
 */
export function adminRoutes(context: AuthContext, requireAdmin: RequireAdmin): AuthRoute[] {
  const { pool, project } = context;

  const loadUser = (userId: string) => loadAdminUser(pool, userId);

  async function answerUser(db: Queryable, userId: string) {
    const user = await findUserById(db, userId, { includeDeleted: true });
    if (!user) throw authErrors.userNotFound();
    return userJson(user);
  }

  /** POST /admin/users (`adminUserCreate`). */
  async function createUser(request: IncomingMessage, claims: JWTPayload) {
    const body = await readJsonObject(request);
    const aud = stringField(body, 'aud') || requestAud(request, claims);
    const rawEmail = stringField(body, 'email') ?? '';
    if (rawEmail === '' && (stringField(body, 'phone') ?? '') === '')
      throw authErrors.validation('Cannot create a user without either an email or phone');
    refusePhone(body);
    const email = validEmail(rawEmail);
    const duplicate = await pool.query('select 1 from auth.users where lower(email) = $1 and aud = $2', [
      email,
      aud,
    ]);
    if (duplicate.rowCount) throw authErrors.emailExists();
    const password = body.password === null ? undefined : stringField(body, 'password');
    const passwordHash = stringField(body, 'password_hash') ?? '';
    if (password !== undefined && passwordHash !== '')
      throw authErrors.validation('Only a password or a password hash should be provided');
    if (passwordHash !== '' && !bcryptHash.test(passwordHash))
      throw authErrors.validation(
        'password_hash must be a bcrypt hash: Argon2 and Firebase scrypt hashes are not supported by the local stack',
      );
    if (password && Buffer.byteLength(password, 'utf8') > maxPasswordBytes)
      throw authErrors.validation('bcrypt: password length exceeds 72 bytes');
    const requestedId = stringField(body, 'id') ?? '';
    if (requestedId !== '' && !uuidPattern.test(requestedId))
      throw authErrors.validation('ID must conform to the uuid v4 format');
    if (requestedId === nilUuid) throw authErrors.validation('ID cannot be a nil uuid');
    const banMs = banDurationOf(body);

    const userId = await inTransaction(pool, async (client) => {
      // Without a password GoTrue sets a random one of 64 characters: nobody can sign in with it.
      const id = await insertUser(client, {
        email,
        password: passwordHash !== '' ? null : password || randomBytes(48).toString('base64url'),
        metadata: objectField(body, 'user_metadata') ?? {},
        confirmed: false,
        id: requestedId || undefined,
      });
      await applyAdminChanges(client, id, {
        role: stringField(body, 'role') || 'authenticated',
        aud,
        confirm: body.email_confirm === true,
        appMetadata: objectField(body, 'app_metadata'),
        passwordHash: passwordHash || undefined,
        banMs,
      });
      return id;
    }).catch((error: unknown) => {
      if ((error as { code?: string }).code === '23505') throw authErrors.emailExists();
      if (error instanceof AuthError) throw error;
      // GoTrue answers any database refusal (a trigger of the project) as its own 500.
      throw new AuthError(500, 'unexpected_failure', 'Database error creating new user');
    });
    return answerUser(pool, userId);
  }

  /** PUT /admin/users/{id} (`adminUserUpdate`). */
  async function updateUserById(request: IncomingMessage, userId: string) {
    const user = await loadUser(userId);
    const body = await readJsonObject(request);
    const rawEmail = stringField(body, 'email') ?? '';
    const email = rawEmail === '' ? undefined : validEmail(rawEmail);
    refusePhone(body);
    const banMs = banDurationOf(body);
    const password = body.password === null ? undefined : stringField(body, 'password');
    if (password !== undefined) context.checkPasswordStrength(password);
    const confirm = body.email_confirm === true;
    await inTransaction(pool, async (client) => {
      // A new password clears the mailed tokens and ends every session (models/user.go `UpdatePassword`).
      if (password !== undefined) await updateUser(client, user.id, { password, sessionId: null });
      if (email !== undefined) {
        // The e-mail identity follows, verified only when the admin confirms in the same call.
        await client.query(
          `with identity as (
             update auth.identities set updated_at = now(),
               identity_data = identity_data || jsonb_build_object('email', $2::text, 'email_verified', $3::boolean)
             where user_id = $1 and provider = 'email' returning id
           ), added as (
             insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
             select $1::text, $1, jsonb_build_object('sub', $1::text, 'email', $2::text, 'email_verified', $3::boolean,
               'phone_verified', false), 'email', now(), now(), now()
             where not exists (select from identity)
           )
           update auth.users set email = $2, updated_at = now() where id = $1`,
          [user.id, email, confirm],
        );
      }
      await applyAdminChanges(client, user.id, {
        role: stringField(body, 'role') || undefined,
        confirm,
        appMetadata: objectField(body, 'app_metadata'),
        userMetadata: objectField(body, 'user_metadata'),
        banMs,
      });
    }).catch((error: unknown) => {
      if ((error as { code?: string }).code === '23505') throw authErrors.emailExists();
      if (error instanceof AuthError) throw error;
      throw new AuthError(500, 'unexpected_failure', 'Error updating user');
    });
    return answerUser(pool, user.id);
  }

  /**
   * DELETE /admin/users/{id} (`adminUserDelete`): removed with everything that references it, or (soft)
   * kept with its addresses obfuscated, metadata emptied, factors and sessions gone
   * (models/user.go `SoftDeleteUser`, `SoftDeleteUserIdentities`).
   */
  async function deleteUserById(request: IncomingMessage, userId: string) {
    const user = await loadUser(userId);
    const body = await readJsonObject(request);
    if (body.should_soft_delete !== true) {
      // GoTrue answers any database refusal (a trigger keeping the books) as its own 500.
      await pool.query('delete from auth.users where id = $1', [user.id]).catch(() => {
        throw new AuthError(500, 'unexpected_failure', 'Database error deleting user');
      });
      return {};
    }
    if (user.deleted_at) return {};
    await softDeleteUser(pool, user.id);
    return {};
  }

  const user = (path: string) => new RegExp(`^/admin/users/([^/]+)${path}/?$`);

  return [
    {
      method: 'GET',
      path: /^\/admin\/users\/?$/,
      handle: async ({ request, response, url }) =>
        listUsersPage(pool, { request, response, url }, await requireAdmin(request)),
    },
    {
      method: 'POST',
      path: /^\/admin\/users\/?$/,
      handle: async ({ request }) => createUser(request, await requireAdmin(request)),
    },
    {
      method: 'GET',
      path: user(''),
      handle: async ({ request, params: [userId = ''] }) => {
        await requireAdmin(request);
        return userJson(await loadUser(userId));
      },
    },
    {
      method: 'PUT',
      path: user(''),
      handle: async ({ request, params: [userId = ''] }) => {
        await requireAdmin(request);
        return updateUserById(request, userId);
      },
    },
    {
      method: 'DELETE',
      path: user(''),
      handle: async ({ request, params: [userId = ''] }) => {
        await requireAdmin(request);
        return deleteUserById(request, userId);
      },
    },
    ...adminFactorRoutes(context, { requireAdmin, loadUser }),
    generateLinkRoute(context, { requireAdmin, answerUser, project }),
  ];
}
