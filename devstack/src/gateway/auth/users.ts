import type pg from 'pg';

export interface UserRow {
  id: string;
  aud: string;
  role: string;
  email: string;
  email_confirmed_at: Date | null;
  confirmed_at: Date | null;
  confirmation_sent_at: Date | null;
  last_sign_in_at: Date | null;
  invited_at: Date | null;
  recovery_sent_at: Date | null;
  email_change: string | null;
  email_change_sent_at: Date | null;
  banned_until: Date | null;
  /** `banned_until` is ahead, by the database's clock (models/user.go `IsBanned`). */
  is_banned: boolean;
  deleted_at: Date | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
  is_anonymous: boolean;
  identities: IdentityRow[] | null;
  factors: FactorJson[] | null;
}

/** A multi-factor factor as GoTrue's user object lists it (never its secret). */
interface FactorJson {
  id: string;
  friendly_name?: string;
  factor_type: string;
  status: string;
  created_at: string;
  updated_at: string;
  last_challenged_at: string | null;
}

interface IdentityRow {
  identity_id: string;
  id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  last_sign_in_at: string | null;
  created_at: string;
  updated_at: string;
  email: string | null;
}

/** A timestamp as Go's RFC 3339 (`time.RFC3339Nano`): UTC with `Z`, trailing zeros of the fraction dropped. */
const rfc3339 = (column: string) =>
  `rtrim(rtrim(to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'), '0'), '.') || 'Z'`;

/** A factor as GoTrue's JSON has it (models/factor.go): no secret, `friendly_name` only when set. */
export const factorJson = (alias: string) =>
  `jsonb_strip_nulls(jsonb_build_object('id', ${alias}.id, 'friendly_name', nullif(${alias}.friendly_name, ''),
     'factor_type', ${alias}.factor_type, 'status', ${alias}.status, 'created_at', ${alias}.created_at,
     'updated_at', ${alias}.updated_at)) || jsonb_build_object('last_challenged_at', ${alias}.last_challenged_at)`;

const userColumns = `u.id, u.aud, u.role, u.email, u.email_confirmed_at, u.confirmed_at, u.confirmation_sent_at,
  u.last_sign_in_at, u.invited_at, u.recovery_sent_at, nullif(u.email_change, '') as email_change,
  u.email_change_sent_at, u.banned_until, coalesce(u.banned_until > now(), false) as is_banned, u.deleted_at,
  u.raw_app_meta_data, u.raw_user_meta_data, u.created_at, u.updated_at, u.is_anonymous,
  (select json_agg(json_build_object('identity_id', i.id, 'id', i.provider_id, 'user_id', i.user_id,
     'identity_data', i.identity_data, 'provider', i.provider,
     'last_sign_in_at', ${rfc3339('i.last_sign_in_at')}, 'created_at', ${rfc3339('i.created_at')},
     'updated_at', ${rfc3339('i.updated_at')}, 'email', i.email))
   from auth.identities i where i.user_id = u.id) as identities,
  (select jsonb_agg(${factorJson('f')} order by f.created_at)
   from auth.mfa_factors f where f.user_id = u.id) as factors`;

/** A field GoTrue writes with `omitempty`: left out when empty. */
const omitEmpty = <T>(name: string, value: T | null | undefined) =>
  value === null || value === undefined || value === '' ? {} : { [name]: value };

/** GoTrue's user object (models/user.go), as supabase-js exposes it. */
export function userJson(user: UserRow) {
  return {
    id: user.id,
    aud: user.aud,
    role: user.role,
    email: user.email,
    ...omitEmpty('email_confirmed_at', user.email_confirmed_at),
    ...omitEmpty('invited_at', user.invited_at),
    phone: '',
    ...omitEmpty('confirmed_at', user.confirmed_at),
    ...omitEmpty('confirmation_sent_at', user.confirmation_sent_at),
    ...omitEmpty('recovery_sent_at', user.recovery_sent_at),
    ...omitEmpty('new_email', user.email_change),
    ...omitEmpty('email_change_sent_at', user.email_change_sent_at),
    ...omitEmpty('last_sign_in_at', user.last_sign_in_at),
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    identities: user.identities ?? [],
    // GoTrue omits an empty list (`factors,omitempty`).
    ...(user.factors?.length ? { factors: user.factors } : {}),
    created_at: user.created_at,
    updated_at: user.updated_at,
    ...omitEmpty('banned_until', user.banned_until),
    ...omitEmpty('deleted_at', user.deleted_at),
    is_anonymous: user.is_anonymous,
  };
}

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
