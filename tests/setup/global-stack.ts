import type { TestProject } from 'vitest/node';
import { startStack } from '../../devstack/src/stack';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    apiUrl: string;
    anonKey: string;
    serviceRoleKey: string;
    jwtSecret: string;
  }
}

/** One throwaway stack (fresh database, seeded) for every node-side test file. */
export default async function setup(project: TestProject) {
  const stack = await startStack();
  project.provide('databaseUrl', stack.databaseUrl);
  project.provide('apiUrl', stack.apiUrl);
  project.provide('anonKey', stack.anonKey);
  project.provide('serviceRoleKey', stack.serviceRoleKey);
  project.provide('jwtSecret', stack.jwtSecret);
  return async () => {
    await stack.stop();
  };
}
