import { localDefaults } from '../config';
import { startGateway } from './server';

/**
 * The gateway alone, over an existing database: `DATABASE_URL=… API_PORT=0 tsx devstack/src/gateway/main.ts`.
 * Prints `gateway listening on <url>` when ready; SIGTERM or SIGINT stops it. Benchmarks run it as its
 * own process so its memory and CPU are measured apart from the load.
 */
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required');

const gateway = await startGateway({
  databaseUrl,
  jwtSecret: localDefaults.jwtSecret,
  anonKey: localDefaults.anonKey,
  serviceRoleKey: localDefaults.serviceRoleKey,
  port: localDefaults.apiPort,
});
console.log(`gateway listening on ${gateway.url}`);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    void gateway.stop().then(() => process.exit(0));
  });
}
