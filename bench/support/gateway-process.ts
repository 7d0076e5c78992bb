import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { startPostgres } from '../../devstack/src/db/postgres';
import { prepareDatabase } from '../../devstack/src/db/prepare';

const gatewayMain = new URL('../../devstack/src/gateway/main.ts', import.meta.url).pathname;

export interface GatewayProcess {
  url: string;
  process: ChildProcess;
  /** Peak resident memory of the gateway process so far (VmHWM), in MB. */
  peakRssMb(): Promise<number>;
  stop(): Promise<void>;
}

/** The gateway in its own Node process on a free port, so the load generator does not share its CPU. */
export async function startGatewayProcess(databaseUrl: string): Promise<GatewayProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', gatewayMain], {
    env: { ...process.env, DATABASE_URL: databaseUrl, API_PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const output = child.stdout;
  if (!output) throw new Error('the gateway process has no stdout');
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`gateway exited with ${code}`)));
    createInterface({ input: output }).on('line', (line) => {
      const match = line.match(/gateway listening on (\S+)/);
      if (match?.[1]) resolve(match[1]);
    });
  });
  return {
    url,
    process: child,
    async peakRssMb() {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
      const kilobytes = Number(status.match(/VmHWM:\s+(\d+)/)?.[1] ?? Number.NaN);
      return kilobytes / 1024;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Runs `bench` against a gateway process on its own unseeded Postgres; stops both after. */
export async function withGatewayProcess(bench: (gateway: GatewayProcess) => Promise<void>): Promise<void> {
  const postgres = await startPostgres();
  try {
    await prepareDatabase(postgres.url, { seed: false });
    const gateway = await startGatewayProcess(postgres.url);
    try {
      await bench(gateway);
    } finally {
      await gateway.stop();
    }
  } finally {
    await postgres.stop();
  }
}
