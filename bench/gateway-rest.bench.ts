/**
 * REST throughput of the local gateway: a signed-in person's 20 newest buy requests
 * (`GET /rest/v1/buy_requests?select=*&user_id=eq.<id>&order=date.desc&limit=20` with their JWT), from 10
 * concurrent keep-alive clients for 10 s (5 slices of 2 s, interleaved with the baseline), against the same SQL (same transaction, role and claims) run
 * directly through `pg` by 10 concurrent clients in the same run (the gateway's own `runAsCaller`). The gateway runs in its own process.
 *
 * Budgets on this 2-core machine: ≥ 1,500 req/s, p95 ≤ 15 ms, pg/gateway throughput ratio ≤ 2.0,
 * gateway peak RSS ≤ 200 MB. Anchor: PostgREST serves ~2,500 req/s of single rows on a small instance.
 *
 * `npm run bench -- gateway-rest`
 */
import { Agent, request } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { localDefaults } from '../devstack/src/config';
import { startPostgres } from '../devstack/src/db/postgres';
import { prepareDatabase } from '../devstack/src/db/prepare';
import { runAsCaller } from '../devstack/src/gateway/rest/caller';
import { parseQuery } from '../devstack/src/gateway/rest/query-grammar';
import { readSql, SqlParams } from '../devstack/src/gateway/rest/sql';
import { reportBudgetChecks, type BudgetCheck } from './support/budget-checks';
import { startGatewayProcess } from './support/gateway-process';
import { percentile } from './support/stats';

const CLIENTS = 10;
const DURATION_MS = 10_000;
const WARM_UP_MS = 1_500;
const OTHER_PEOPLE = 200;
const ROWS_PER_PERSON = 20;
const BUDGET = { requestsPerSecond: 1_500, p95Ms: 15, ratio: 2.0, rssMb: 200 };

const SLICES = 5;

interface RunResult {
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p95: number;
}

/** Latencies and busy time of one path, gathered over several slices. */
function createRun() {
  const latencies: number[] = [];
  let elapsedMs = 0;
  return {
    /** Runs `operation` from `clients` concurrent loops for `durationMs`, timing each call. */
    async slice(operation: () => Promise<void>, durationMs: number, clients = CLIENTS) {
      const started = performance.now();
      const deadline = started + durationMs;
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (performance.now() < deadline) {
            const begun = performance.now();
            await operation();
            latencies.push(performance.now() - begun);
          }
        }),
      );
      elapsedMs += performance.now() - started;
    },
    result(): RunResult {
      latencies.sort((x, y) => x - y);
      return {
        requests: latencies.length,
        requestsPerSecond: latencies.length / (elapsedMs / 1000),
        p50: percentile(latencies, 0.5),
        p95: percentile(latencies, 0.95),
      };
    },
  };
}

async function seedPeople(db: pg.Pool): Promise<void> {
  // Other people's rows make row-level security do real work; loaded as the operator, triggers off.
  await db.query(
    `insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at)
     select gen_random_uuid(), 'authenticated', 'authenticated', 'other-' || n || '@example.com',
            '{"full_name": "Other"}', now(), now()
     from generate_series(1, $1::int) as n`,
    [OTHER_PEOPLE],
  );
}

async function fillBuyRequests(db: pg.Pool) {
  const client = await db.connect();
  try {
    await client.query('begin');
    await client.query('set local session_replication_role = replica');
    await client.query(
      `insert into public.buy_requests (user_id, cryptocurrency, amount, date)
       select p.id, 'bitcoin', 10 + n, now() - make_interval(mins => n)
       from public.profiles p cross join generate_series(1, $1::int) as n`,
      [ROWS_PER_PERSON],
    );
    await client.query('commit');
  } finally {
    client.release();
  }
  await db.query('vacuum analyze');
}

function httpGet(
  agent: Agent,
  url: URL,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const call = request(url, { agent, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    call.on('error', reject);
    call.end();
  });
}

async function main() {
  const postgres = await startPostgres();
  const admin = new pg.Pool({ connectionString: postgres.url, max: 2 });
  admin.on('error', () => undefined);
  try {
    await prepareDatabase(postgres.url, { seed: false });
    await seedPeople(admin);
    const gateway = await startGatewayProcess(postgres.url);
    try {
      const signUp = await fetch(`${gateway.url}/auth/v1/signup`, {
        method: 'POST',
        headers: { apikey: localDefaults.anonKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'bench@example.com', password: 'bench-pass-123' }),
      });
      const session = (await signUp.json()) as { access_token: string; user: { id: string } };
      await fillBuyRequests(admin);

      const path = `/rest/v1/buy_requests?select=*&user_id=eq.${session.user.id}&order=date.desc&limit=20`;
      const url = new URL(path, gateway.url);
      const headers = { apikey: localDefaults.anonKey, Authorization: `Bearer ${session.access_token}` };
      const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
      const probe = await httpGet(agent, url, headers);
      const rows = (JSON.parse(probe.body) as unknown[]).length;
      if (probe.status !== 200 || rows !== ROWS_PER_PERSON) {
        throw new Error(`Expected 200 with ${ROWS_PER_PERSON} rows, got ${probe.status} with ${rows}`);
      }
      let failures = 0;
      const viaGateway = async () => {
        const { status } = await httpGet(agent, url, headers);
        if (status !== 200) failures++;
      };
      // No database at all: what one HTTP hop to the gateway process costs on this machine right now.
      const healthUrl = new URL('/auth/v1/health', gateway.url);
      const viaHealth = async () => {
        await httpGet(agent, healthUrl, {});
      };

      // The statement and transaction the gateway runs for this request, straight through pg.
      const params = new SqlParams();
      const sql = readSql('public."buy_requests"', parseQuery(new URLSearchParams(url.search)), params, {
        withTotal: false,
      });
      const claims = JSON.stringify(
        JSON.parse(Buffer.from(session.access_token.split('.')[1] ?? '', 'base64url').toString()),
      );
      const direct = new pg.Pool({
        connectionString: postgres.url.replace('postgres:postgres@', 'authenticator:postgres@'),
        max: CLIENTS,
        pipeline: true,
      });
      direct.on('error', () => undefined);
      const caller = {
        role: 'authenticated',
        claims,
        method: 'GET',
        path,
        searchPath: '"public", "public", "extensions"',
      };
      const viaPg = () =>
        runAsCaller(direct, caller, { mode: 'read' }, async (client) => {
          await client.query(sql, params.values);
        });

      await createRun().slice(viaGateway, WARM_UP_MS);
      await createRun().slice(viaPg, WARM_UP_MS);
      // Interleaved slices, so both paths see the same load from the rest of the machine.
      const gatewayRuns = createRun();
      const pgRuns = createRun();
      const healthRuns = createRun();
      const sequentialRuns = createRun();
      const loadBefore = loadavg()[0] ?? Number.NaN;
      for (let slice = 0; slice < SLICES; slice++) {
        await gatewayRuns.slice(viaGateway, DURATION_MS / SLICES);
        await pgRuns.slice(viaPg, DURATION_MS / SLICES);
        await healthRuns.slice(viaHealth, DURATION_MS / SLICES / 4);
        await sequentialRuns.slice(viaGateway, DURATION_MS / SLICES / 4, 1);
      }
      const gatewayRun = gatewayRuns.result();
      const pgRun = pgRuns.result();
      const healthRun = healthRuns.result();
      const sequentialRun = sequentialRuns.result();
      const rssMb = await gateway.peakRssMb();
      agent.destroy();
      await direct.end();

      const ratio = pgRun.requestsPerSecond / gatewayRun.requestsPerSecond;
      const format = (value: number) => Number(value.toFixed(2));
      console.table({
        'gateway (HTTP, JWT, RLS)': {
          requests: gatewayRun.requests,
          'req/s': Math.round(gatewayRun.requestsPerSecond),
          'p50 ms': format(gatewayRun.p50),
          'p95 ms': format(gatewayRun.p95),
        },
        'pg direct (same SQL)': {
          requests: pgRun.requests,
          'req/s': Math.round(pgRun.requestsPerSecond),
          'p50 ms': format(pgRun.p50),
          'p95 ms': format(pgRun.p95),
        },
        'gateway, one client at a time': {
          requests: sequentialRun.requests,
          'req/s': Math.round(sequentialRun.requestsPerSecond),
          'p50 ms': format(sequentialRun.p50),
          'p95 ms': format(sequentialRun.p95),
        },
        'gateway health (HTTP hop only)': {
          requests: healthRun.requests,
          'req/s': Math.round(healthRun.requestsPerSecond),
          'p50 ms': format(healthRun.p50),
          'p95 ms': format(healthRun.p95),
        },
      });
      console.log(
        `Machine load average (1 min) at the start: ${loadBefore.toFixed(1)} on ${cpus().length} cores`,
      );
      const checks = {
        'req/s': [
          Math.round(gatewayRun.requestsPerSecond),
          `>= ${BUDGET.requestsPerSecond}`,
          gatewayRun.requestsPerSecond >= BUDGET.requestsPerSecond,
        ],
        'p95 ms': [format(gatewayRun.p95), `<= ${BUDGET.p95Ms}`, gatewayRun.p95 <= BUDGET.p95Ms],
        'pg / gateway': [format(ratio), `<= ${BUDGET.ratio}`, ratio <= BUDGET.ratio],
        'gateway peak RSS MB': [Math.round(rssMb), `<= ${BUDGET.rssMb}`, rssMb <= BUDGET.rssMb],
        'failed requests': [failures, '0', failures === 0],
      } satisfies Record<string, BudgetCheck>;
      await reportBudgetChecks(checks);
    } finally {
      await gateway.stop();
    }
  } finally {
    await admin.end();
    await postgres.stop();
  }
}

await main();
