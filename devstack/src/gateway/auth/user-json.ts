/** A user as `userColumns` reads it. */
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

export const userColumns = `u.id, u.aud, u.role, u.email, u.email_confirmed_at, u.confirmed_at, u.confirmation_sent_at,
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
