import type pg from 'pg';
import { inTransaction } from '../database';
import { uuidPattern } from './context';
import { AuthError, authErrors } from './errors';
import { parseGoDuration } from './go-duration';
import { stringField, type JsonObject } from './request-body';
import { findUserById, type Queryable } from './users';

/** What the admin API reads and writes of a user beyond the person's own API (api/admin.go). */

/** GoTrue's `loadUser` (api/admin.go): a UUID, of a user (a soft-deleted one too). */
export async function loadAdminUser(pool: pg.Pool, userId: string) {
  if (!uuidPattern.test(userId)) throw new AuthError(404, 'validation_failed', 'user_id must be an UUID');
  const user = await findUserById(pool, userId, { includeDeleted: true });
  if (!user) throw authErrors.userNotFound();
  return user;
}

/** `ban_duration` as api/admin.go reads it: `none` lifts a ban, else a Go duration from now. */
export function banDurationOf(body: JsonObject): number | undefined {
  const text = stringField(body, 'ban_duration') ?? '';
  if (text === '') return undefined;
  if (text === 'none') return 0;
  const parsed = parseGoDuration(text);
  if ('error' in parsed) throw authErrors.validation(`invalid format for ban duration: ${parsed.error}`);
  return parsed.ms;
}

/** A phone number for a user: the stack has no phone users, so the admin API refuses it by name. */
export function refusePhone(body: JsonObject) {
  if ((stringField(body, 'phone') ?? '') !== '')
    throw authErrors.validation('Phone numbers on users are not supported by the local stack');
}

/**
 * The admin's changes in one statement, as GoTrue's `adminUserCreate` / `adminUserUpdate` make them:
 * role, audience, a confirmation (models/user.go `Confirm`: `email_verified` in the metadata, the mailed
 * tokens cleared), `app_metadata` and `user_metadata` merged (a key set to `null` is removed), a bcrypt
 * hash, and the ban (`banned_until`, none for 0).
 */
export async function applyAdminChanges(
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
 * models/user.go `SoftDeleteUser`, `SoftDeleteUserIdentities`: kept with `deleted_at`, its addresses
 * obfuscated as GoTrue's `obfuscateValue`, metadata and identity data emptied, factors and sessions gone.
 */
export async function softDeleteUser(pool: pg.Pool, userId: string) {
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
      [userId],
    );
    await client.query(
      `update auth.identities set identity_data = '{}', updated_at = now(),
           provider_id = translate(rtrim(encode(extensions.digest(user_id::text || provider || ':' || provider_id,
             'sha256'), 'base64'), '='), '+/', '-_')
         where user_id = $1`,
      [userId],
    );
    await client.query('delete from auth.mfa_factors where user_id = $1', [userId]);
    await client.query('delete from auth.sessions where user_id = $1', [userId]);
  }).catch(() => {
    throw new AuthError(500, 'unexpected_failure', 'Error soft deleting user');
  });
}
