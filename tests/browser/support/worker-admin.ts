import pg from 'pg';
import type { TwoFactorAccount } from '../../support/two-factor-sign-in';

/**
 * One admin per Playwright worker. Verifying a code ends the person's other sessions still at aal1 (GoTrue's
 * InvalidateSessionsWithAALLessThan), so two workers signing in one admin at once would end each other's
 * first step; each worker signs in its own. The global setup makes them as `supabase/seed.sql` makes the
 * seeded admin: a confirmed e-mail, the `admin` role given by an operator and a verified TOTP factor with a
 * local-only secret.
 */
export interface WorkerAdmin extends TwoFactorAccount {
  fullName: string;
}

const base32Letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** The admin of the worker running this code (Playwright's parallel index, 0 outside a worker). */
export function workerAdmin(index = Number(process.env.TEST_PARALLEL_INDEX ?? 0)): WorkerAdmin {
  return {
    email: `admin-worker-${index}@example.com`,
    password: 'admin-worker-pass-123',
    // 32 base32 characters, as the seeded admin's secret.
    totpSecret: `COINVAULTBROWSERWORKERADMINKEY${base32Letters[Math.floor(index / 32)]}${base32Letters[index % 32]}`,
    fullName: `Ada Admin ${index + 1}`,
  };
}

/** Second admins' indexes start here, far above any worker count. */
const SECOND_ADMIN_OFFSET = 100;

/**
 * The four-eyes rule's other admin for the worker running this code: its own account for the same reason as
 * the first (and a code is accepted once, so two workers cannot share one factor in one time step).
 */
export function workerSecondAdmin(index = Number(process.env.TEST_PARALLEL_INDEX ?? 0)): WorkerAdmin {
  return { ...workerAdmin(index + SECOND_ADMIN_OFFSET), fullName: `Bea Checker ${index + 1}` };
}

/** Makes the admins (and second admins) of workers 0 … count − 1 in the test stack's database, as its operator. */
export async function createWorkerAdmins(databaseUrl: string, count: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const indexes = Array.from({ length: count }, (_, index) => index);
    for (const admin of [
      ...indexes.map((index) => workerAdmin(index)),
      ...indexes.map((index) => workerSecondAdmin(index)),
    ]) {
      await client.query('begin');
      const { rows } = await client.query<{ id: string }>(
        `insert into auth.users (
           instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
           raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
           confirmation_token, recovery_token, email_change_token_new, email_change,
           email_change_token_current, reauthentication_token
         )
         values (
           '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1,
           extensions.crypt($2, extensions.gen_salt('bf')), now(),
           '{"provider": "email", "providers": ["email"]}', jsonb_build_object('full_name', $3::text),
           now(), now(), '', '', '', '', '', ''
         )
         returning id`,
        [admin.email, admin.password, admin.fullName],
      );
      const id = rows[0]?.id;
      await client.query(
        `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
         values ($1::text, $1::uuid, jsonb_build_object('sub', $1::text, 'email', $2::text, 'email_verified', true),
                 'email', now(), now(), now())`,
        [id, admin.email],
      );
      await client.query(`update public.profiles set role = 'admin' where id = $1`, [id]);
      await client.query(
        `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
         values (gen_random_uuid(), $1, 'Worker authenticator', 'totp', 'verified', now(), now(), $2)`,
        [id, admin.totpSecret],
      );
      await client.query('commit');
    }
  } finally {
    await client.end();
  }
}
