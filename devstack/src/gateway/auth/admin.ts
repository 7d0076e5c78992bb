import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { inTransaction } from '../database';
import type { JWTPayload } from 'jose';
import type { RequireAdmin } from './admin-credentials';
import { requestAud, uuidPattern, validEmail, type AuthContext } from './context';
import { AuthError, authErrors, maxPasswordBytes } from './errors';
import { generateLinkRoute } from './admin-links';
import { parseGoDuration } from './go-duration';
import { objectField, readJsonObject, stringField, type JsonObject } from './request-body';
import type { AuthRoute } from './route';
import { removeFactor } from './mfa-store';
import {
  factorJson,
  findUserById,
  insertUser,
  listUsers,
  updateUser,
  userJson,
  type Queryable,
} from './users';

const nilUuid = '00000000-0000-0000-0000-000000000000';
/** GoTrue's `defaultPerPage` (api/pagination.go). */
const defaultPerPage = 50;
const bcryptHash = /^\$2[aby]?\$\d{2}\$[./A-Za-z0-9]{53}$/;

/** `ban_duration` as api/admin.go reads it: `none` lifts a ban, else a Go duration from now. */
function banDurationOf(body: JsonObject): number | undefined {
  const text = stringField(body, 'ban_duration') ?? '';
  if (text === '') return undefined;
  if (text === 'none') return 0;
  const parsed = parseGoDuration(text);
  if ('error' in parsed) throw authErrors.validation(`invalid format for ban duration: ${parsed.error}`);
  return parsed.ms;
}

/** A phone number for a user: the stack has no phone users, so the admin API refuses it by name. */
function refusePhone(body: JsonObject) {
  if ((stringField(body, 'phone') ?? '') !== '')
    throw authErrors.validation('Phone numbers on users are not supported by the local stack');
}

/**
 * The admin's changes in one statement, as GoTrue's `adminUserCreate` / `adminUserUpdate` make them:
 * role, audience, a confirmation (models/user.go `Confirm`: `email_verified` in the metadata, the mailed
 * tokens cleared), `app_metadata` and `user_metadata` merged (a key set to `null` is removed), a bcrypt
 * hash, and the ban (`banned_until`, none for 0).
 */
async function applyAdminChanges(
  db: Queryable,
  userId: string,
  changes: {
    role?: string;
    aud?: string;
    confirm?: boolean;
    appMetadata?: JsonObject;
    userMetadata?: JsonObject;
    passwordHash?: string;
    banMs?: number;
  },
) {
  await db.query(
    `update auth.users set
       role = coalesce($2, role),
       aud = coalesce($3, aud),
       email_confirmed_at = case when $4 then now() else email_confirmed_at end,
       confirmation_token = case when $4 then '' else confirmation_token end,
       raw_app_meta_data = case when $5::jsonb is null then raw_app_meta_data
         else (coalesce(raw_app_meta_data, '{}') || $5::jsonb)
           - array(select key from jsonb_each($5::jsonb) where value = 'null'::jsonb) end,
       raw_user_meta_data = (case when $6::jsonb is null then coalesce(raw_user_meta_data, '{}')
         else (coalesce(raw_user_meta_data, '{}') || $6::jsonb)
           - array(select key from jsonb_each($6::jsonb) where value = 'null'::jsonb) end)
         || case when $4 then '{"email_verified": true}'::jsonb else '{}'::jsonb end,
       encrypted_password = coalesce($7, encrypted_password),
       banned_until = case when $8::float8 is null then banned_until
         when $8 = 0 then null else now() + $8 * interval '1 millisecond' end,
       updated_at = now()
     where id = $1`,
    [
      userId,
      changes.role ?? null,
      changes.aud ?? null,
      changes.confirm === true,
      changes.appMetadata ? JSON.stringify(changes.appMetadata) : null,
      changes.userMetadata ? JSON.stringify(changes.userMetadata) : null,
      changes.passwordHash ?? null,
      changes.banMs ?? null,
    ],
  );
}

/**
 * GoTrue's admin API (api/admin.go, api/mail.go `adminGenerateLink`), behind `requireAdminCredentials`:
 * users (create, list, get, update, delete), their factors, and generated links.
 */
export function adminRoutes(context: AuthContext, requireAdmin: RequireAdmin): AuthRoute[] {
  const { pool, project } = context;

  /** GoTrue's `loadUser` (api/admin.go): a UUID, of a user (a soft-deleted one too). */
  async function loadUser(userId: string) {
    if (!uuidPattern.test(userId)) throw new AuthError(404, 'validation_failed', 'user_id must be an UUID');
    const user = await findUserById(pool, userId, { includeDeleted: true });
    if (!user) throw authErrors.userNotFound();
    return user;
  }

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

  /** GET /admin/users (`adminUsers`): offset pages with GoTrue's `Link` and `X-Total-Count`. */
  async function listAllUsers(
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
    claims: JWTPayload,
  ) {
    const sort = url.searchParams.get('sort');
    let ascending = false;
    if (sort !== null) {
      const [field = '', direction] = sort.split(' ', 2);
      if (field !== 'created_at')
        throw authErrors.validation(`Bad Sort Parameters: bad field for sort '${field}'`);
      if (direction !== undefined && !/^(asc|desc)$/i.test(direction))
        throw authErrors.validation(
          `Bad Sort Parameters: bad direction for sort '${direction}', only 'asc' and 'desc' allowed`,
        );
      ascending = direction?.toLowerCase() === 'asc';
    }
    const pageParam = (name: string, fallback: number) => {
      const text = url.searchParams.get(name) ?? '';
      if (text === '') return fallback;
      if (!/^\d+$/.test(text))
        throw authErrors.validation(
          `Bad Pagination Parameters: strconv.ParseUint: parsing ${JSON.stringify(text)}: invalid syntax`,
        );
      return Number(text);
    };
    // Pop's paginator reads a page below 1 as 1 and a page size below 1 as 20.
    const page = Math.max(pageParam('page', 1), 1);
    const perPage = pageParam('per_page', defaultPerPage) || 20;
    const aud = requestAud(request, claims);
    const { users, total } = await listUsers(pool, {
      aud,
      filter: url.searchParams.get('filter') ?? '',
      ascending,
      limit: perPage,
      offset: (page - 1) * perPage,
    });
    // api/pagination.go `addPaginationHeaders`: the request's own path and query, page replaced.
    const totalPages = Math.ceil(total / perPage);
    const linkTo = (target: number) => {
      const query = new URLSearchParams(url.searchParams);
      query.set('page', String(target));
      query.sort();
      return `<${url.pathname.replace(/^\/auth\/v1/, '')}?${query}>`;
    };
    const link = `${totalPages > page ? `${linkTo(page + 1)}; rel="next", ` : ''}${linkTo(totalPages)}; rel="last"`;
    response.setHeader('Link', link);
    response.setHeader('X-Total-Count', String(total));
    return { users: users.map(userJson), aud };
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
    const obfuscated = (value: string) =>
      `translate(rtrim(encode(extensions.digest(id::text || ${value}, 'sha256'), 'base64'), '='), '+/', '-_')`;
    await inTransaction(pool, async (client) => {
      await client.query(
        `update auth.users set email = ${obfuscated("coalesce(email, '')")},
           phone = left(${obfuscated("coalesce(phone, '')")}, 15),
           email_change = ${obfuscated("coalesce(email_change, '')")},
           phone_change = left(${obfuscated("coalesce(phone_change, '')")}, 15),
           encrypted_password = null, confirmation_token = '', recovery_token = '',
           email_change_token_current = '', email_change_token_new = '', phone_change_token = '',
           raw_user_meta_data = '{}', raw_app_meta_data = '{}', deleted_at = now(), updated_at = now()
         where id = $1`,
        [user.id],
      );
      await client.query(
        `update auth.identities set identity_data = '{}', updated_at = now(),
           provider_id = translate(rtrim(encode(extensions.digest(user_id::text || provider || ':' || provider_id,
             'sha256'), 'base64'), '='), '+/', '-_')
         where user_id = $1`,
        [user.id],
      );
      await client.query('delete from auth.mfa_factors where user_id = $1', [user.id]);
      await client.query('delete from auth.sessions where user_id = $1', [user.id]);
    }).catch(() => {
      throw new AuthError(500, 'unexpected_failure', 'Error soft deleting user');
    });
    return {};
  }

  /** GoTrue's `loadFactor`: a UUID, of one of the user's factors. */
  async function loadFactor(userId: string, factorId: string) {
    const user = await loadUser(userId);
    if (!uuidPattern.test(factorId))
      throw new AuthError(404, 'validation_failed', 'factor_id must be an UUID');
    const { rows } = await pool.query<{ factor: object }>(
      `select ${factorJson('f')} as factor from auth.mfa_factors f where f.id = $1 and f.user_id = $2`,
      [factorId, user.id],
    );
    const factor = rows[0]?.factor;
    if (!factor) throw new AuthError(404, 'mfa_factor_not_found', 'Factor not found');
    return factor;
  }

  const user = (path: string) => new RegExp(`^/admin/users/([^/]+)${path}/?$`);

  return [
    {
      method: 'GET',
      path: /^\/admin\/users\/?$/,
      handle: async ({ request, response, url }) =>
        listAllUsers(request, response, url, await requireAdmin(request)),
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
    {
      method: 'GET',
      path: user('/factors'),
      handle: async ({ request, params: [userId = ''] }) => {
        await requireAdmin(request);
        return (await loadUser(userId)).factors ?? [];
      },
    },
    {
      method: 'DELETE',
      path: user('/factors/([^/]+)'),
      // The sessions the factor raised drop to aal1 (models/factor.go `DowngradeSessionsToAAL1`).
      handle: async ({ request, params: [userId = '', factorId = ''] }) => {
        await requireAdmin(request);
        const factor = await loadFactor(userId, factorId);
        await removeFactor(pool, factorId);
        return factor;
      },
    },
    {
      method: 'PUT',
      path: user('/factors/([^/]+)'),
      handle: async ({ request, params: [userId = '', factorId = ''] }) => {
        await requireAdmin(request);
        await loadFactor(userId, factorId);
        const friendlyName = stringField(await readJsonObject(request), 'friendly_name') ?? '';
        if (friendlyName !== '')
          await pool.query(
            'update auth.mfa_factors set friendly_name = $2, updated_at = now() where id = $1',
            [factorId, friendlyName],
          );
        return loadFactor(userId, factorId);
      },
    },
    generateLinkRoute(context, { requireAdmin, answerUser, project }),
  ];
}
