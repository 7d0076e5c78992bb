/**
 * The accounts `supabase/seed.sql` makes, for the start banner, scripts and tests. Local values only: a hosted
 * project is seeded with its own accounts (docs/deploying.md).
 */
export const seededAccounts = {
  /** Admins work at aal2: the seeded admin's TOTP factor (seed.sql) has this published, local-only secret. */
  admin: {
    email: 'admin@example.com',
    password: 'admin-pass-123',
    totpSecret: 'COINVAULTLOCALADMINSECRETTOTPKEY',
  },
  /** The second admin, who confirms what the first proposed above the four-eyes threshold (and vice versa). */
  secondAdmin: {
    email: 'admin2@example.com',
    password: 'admin2-pass-123',
    totpSecret: 'COINVAULTLOCALSECONDADMINTOTPKEY',
  },
  user: { email: 'user@example.com', password: 'user-pass-123' },
} as const;
