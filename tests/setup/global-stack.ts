import type { TestProject } from 'vitest/node';
import { localDefaults } from '../../devstack/src/config';
import { startStack } from '../../devstack/src/stack';
import { seededAccounts } from '../../supabase/seed-accounts';
import { createNodeClient } from '../support/node-client';
import { signInWithTotp } from '../support/two-factor-sign-in';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    apiUrl: string;
    anonKey: string;
    serviceRoleKey: string;
    jwtSecret: string;
    /** The seeded admin's aal2 session, signed in once for every file (see tests/support/api.ts). */
    adminSession: { accessToken: string; refreshToken: string };
  }
}

/**
 * One throwaway stack (fresh database, seeded) for every node-side test file, and one session of the seeded
 * admin: Auth takes each TOTP code once, so a sign-in per file would wait for the next 30 s step.
 */
export default async function setup(project: TestProject) {
  const stack = await startStack();
  const admin = await signInWithTotp(
    createNodeClient(stack.apiUrl, localDefaults.anonKey),
    seededAccounts.admin,
  );
  project.provide('adminSession', { accessToken: admin.access_token, refreshToken: admin.refresh_token });
  project.provide('databaseUrl', stack.databaseUrl);
  project.provide('apiUrl', stack.apiUrl);
  project.provide('anonKey', stack.anonKey);
  project.provide('serviceRoleKey', stack.serviceRoleKey);
  project.provide('jwtSecret', stack.jwtSecret);
  return async () => {
    await stack.stop();
  };
}
