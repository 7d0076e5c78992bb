import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { localDefaults } from '../config';
import { createJwtKeys } from '../jwt-keys';
import { attachRealtime } from './index';

/**
 * Realtime alone on its own HTTP server: for tests that need to crash or restart it (kill -9,
 * restart) and for measuring its memory apart from its clients. Prints one JSON line when ready.
 *
 *   tsx devstack/src/realtime/serve.ts --database-url postgresql://… [--port 0]
 */
const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    port: { type: 'string', default: '0' },
  },
});
const databaseUrl = values['database-url'];
if (!databaseUrl) throw new Error('--database-url is required');

const server = createServer((_request, response) => {
  response.writeHead(404).end();
});
const realtime = await attachRealtime(server, {
  databaseUrl,
  jwtKeys: await createJwtKeys({ secret: localDefaults.jwtSecret }),
});
await new Promise<void>((resolve) => server.listen(Number(values.port), '127.0.0.1', resolve));
const address = server.address();
console.log(
  JSON.stringify({ ready: true, port: typeof address === 'object' && address ? address.port : null }),
);

async function stop() {
  await realtime.close();
  server.close();
}
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
