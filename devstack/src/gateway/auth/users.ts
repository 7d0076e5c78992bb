import type pg from 'pg';
import { userColumns, type UserRow } from './user-json';

export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

/** A user by id; a soft-deleted one only for the admin API, which still shows it (models.FindUserByID). */
export async function findUserById(
  db: Queryable,
  id: string,
  { includeDeleted = false } = {},
): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(
    `select ${userColumns} from auth.users u where u.id = $1 and ($2 or u.deleted_at is null)`,
    [id, includeDeleted],
  );
  return rows[0];
}

/**
 * A page of the users of an audience, newest first unless `ascending`, with the total, as GoTrue's
 * `FindUsersInAudience` (soft-deleted users included; `filter` matches the e-mail or the full name).
 */
export async function listUsers(
  db: Queryable,
  {
    aud,
    filter,
    ascending,
    limit,
    offset,
  }: { aud: string; filter: string; ascending: boolean; limit: number; offset: number },
): Promise<{ users: UserRow[]; total: number }> {
  const where = `u.aud = $1 and ($2 = '' or u.email like '%' || $2 || '%'
    or u.raw_user_meta_data->>'full_name' ilike '%' || $2 || '%')`;
  const [{ rows }, counted] = await Promise.all([
    db.query<UserRow>(
      `select ${userColumns} from auth.users u where ${where}
       order by u.created_at ${ascending ? 'asc' : 'desc'} limit $3 offset $4`,
      [aud, filter, limit, offset],
    ),
    db.query<{ total: number }>(`select count(*)::int as total from auth.users u where ${where}`, [
      aud,
      filter,
    ]),
  ]);
  return { users: rows, total: counted.rows[0]?.total ?? 0 };
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(
    `select ${userColumns} from auth.users u where lower(u.email) = lower($1) and u.deleted_at is null`,
    [email],
  );
  return rows[0];
}

/** The user whose password matches, compared by pgcrypto's bcrypt inside the database. */
export async function findUserByPassword(
  db: Queryable,
  email: string,
  password: string,
): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(
    `select ${userColumns} from auth.users u
     where lower(u.email) = lower($1) and u.deleted_at is null
       and u.encrypted_password is not null and u.encrypted_password <> ''
       and u.encrypted_password = extensions.crypt($2, u.encrypted_password)
       and exists (select from auth.identities i where i.user_id = u.id and i.provider = 'email')`,
    [email, password],
  );
  return rows[0];
}

/**
 * Creates an e-mail user and its identity, confirmed at once or (confirmations on) waiting for the
 * mailed link; the profile comes from the database trigger. As GoTrue (api/signup.go, models/user.go
 * `Confirm`): the identity's data say `email_verified: false` until a mailed link proves the address, and
 * a confirmed user's metadata say `email_verified: true`.
 */
export async function insertUser(
  db: Queryable,
  {
    email,
    password,
    metadata,
    confirmed,
    id,
  }: {
    /** The admin API may choose the id. */
    id?: string;
    email: string;
    /** None for an invited user, who sets one after following the link. */
    password: string | null;
    metadata: Record<string, unknown>;
    confirmed: boolean;
  },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `with new_user as (
       insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
         raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', coalesce($5::uuid, gen_random_uuid()), 'authenticated', 'authenticated',
         lower($1), coalesce(extensions.crypt($2, extensions.gen_salt('bf', 10)), ''), case when $4 then now() end,
         '{"provider":"email","providers":["email"]}',
         $3::jsonb || case when $4 then '{"email_verified": true}'::jsonb else '{}'::jsonb end, now(), now())
       returning id, email
     )
     insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
     select id::text, id, jsonb_build_object('sub', id::text, 'email', email, 'email_verified', false,
       'phone_verified', false), 'email', now(), now(), now()
     from new_user
     returning user_id as id`,
    [email, password, JSON.stringify(metadata), confirmed, id ?? null],
  );
  const inserted = rows[0]?.id;
  if (!inserted) throw new Error('The sign-up inserted no user');
  return inserted;
}

/** Whether `password` is the user's; never for a user without one (invited: models/user.go `HasPassword`). */
export async function passwordMatches(db: Queryable, userId: string, password: string): Promise<boolean> {
  const { rows } = await db.query<{ matches: boolean }>(
    `select case when coalesce(encrypted_password, '') = '' then false
            else encrypted_password = extensions.crypt($2, encrypted_password) end as matches
     from auth.users where id = $1`,
    [userId, password],
  );
  return rows[0]?.matches ?? false;
}

/**
 * Sets a new password and/or merges `data` into the user metadata (a key set to `null` is removed), as
 * GoTrue's `UserUpdate`. A new password clears every outstanding e-mailed token (an older recovery
 * link no longer signs in) and ends every other session of the user, keeping `sessionId` only:
 * models/user.go `UpdatePassword`.
 */
export async function updateUser(
  db: Queryable,
  userId: string,
  {
    password,
    metadata,
    sessionId,
  }: { password?: string; metadata?: Record<string, unknown>; sessionId: string | null },
) {
  await db.query(
    `with changed as (
       update auth.users set
         encrypted_password = case when $2::text is null then encrypted_password
                              else extensions.crypt($2, extensions.gen_salt('bf', 10)) end,
         confirmation_token = case when $2::text is null then confirmation_token else '' end,
         recovery_token = case when $2::text is null then recovery_token else '' end,
         recovery_sent_at = case when $2::text is null then recovery_sent_at end,
         email_change_token_current = case when $2::text is null then email_change_token_current else '' end,
         email_change_token_new = case when $2::text is null then email_change_token_new else '' end,
         reauthentication_token = case when $2::text is null then reauthentication_token else '' end,
         raw_user_meta_data = (coalesce(raw_user_meta_data, '{}'::jsonb) || coalesce($3::jsonb, '{}'::jsonb))
           - coalesce(array(select key from jsonb_each($3::jsonb) where value = 'null'::jsonb), '{}'),
         updated_at = now()
       where id = $1
       returning id
     )
     delete from auth.sessions
     where $2::text is not null and user_id = (select id from changed) and id is distinct from $4::uuid`,
    [userId, password ?? null, metadata ? JSON.stringify(metadata) : null, sessionId],
  );
}
