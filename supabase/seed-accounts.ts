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
  user: { email: 'user@example.com', password: 'user-pass-123' },
} as const;
