/**
 * The gateway past its capacity: first its capacity for a signed-in person's REST read (100 concurrent
 * keep-alive clients for 10 s, as many as REST admits at once: 32 measured their own round trips on a
 * loaded machine, not the gateway's limit), then a fixed 2,000 requests a second for 60 s as an open loop
 * (requests leave on the clock, whether or not earlier ones were answered, as independent users would
 * send them). The offered rate is the bench's, not taken from the capacity it just measured: a run whose
 * capacity came out low would otherwise offer little and pass without ever being overloaded. Measures
 * goodput (200s per second), p95 latency of admitted requests, the share answered 503 (with
 * `Retry-After`), any other answer, and the gateway's peak resident memory. The gateway runs in its own
 * process.
 *
 * Budgets: the generator issued ≥ 95 % of the 2,000 req/s and that was ≥ 1.5 times the capacity measured
 * (else the run did not reach the load, or did not overload the gateway, and fails as such); goodput ≥ 70%
 * of the measured capacity, p95 of admitted ≤ 1,000 ms, no answer other than 200 or 503, gateway peak RSS
 * ≤ 250 MB (admission bounds what it holds: devstack/README.md). About 1,400 req/s was the capacity on a
 * quiet moment of this 2-core machine.
 *
 * `npm run bench -- overload` (`BENCH_SECONDS=10` for a short overload phase).
 */
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { localDefaults } from '../devstack/src/config';
import { defaultAdmissionLimits } from '../devstack/src/gateway/admission';
import { benchSeconds, reachedLoad, reportBudgetChecks } from './support/budget-checks';
import { withGatewayProcess } from './support/gateway-process';
import { percentile } from './support/stats';

const CAPACITY_CLIENTS = defaultAdmissionLimits.rest;
const CAPACITY_MS = 10_000;
const OFFERED_PER_SECOND = 2_000;
const OVERLOAD_MS = benchSeconds(60) * 1000;
const BUDGET = { overloadFactor: 1.5, goodputShare: 0.7, admittedP95Ms: 1_000, rssMb: 250 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Requests that got no answer at all, by the client's error (reset, refused, hang-up …). */
const noAnswer = new Map<string, number>();

/**
 * The status of a GET, and when it got a connection: a request waits in the generator's agent for a
 * free socket when all are taken, time that is the generator's, not the gateway's.
 */
function get(
  agent: Agent,
  url: URL,
  headers: Record<string, string>,
  onSocket: (at: number) => void = () => undefined,
): Promise<number> {
  return new Promise((resolve) => {
    const call = request(url, { agent, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    // No answer at all (the connection failed or was reset): counted as status 0, by its error.
    call.on('error', (error: NodeJS.ErrnoException) => {
      // A reused keep-alive connection the gateway closed as the request left is told apart from a new one.
      const reason = `${error.code ?? error.message}${call.reusedSocket ? ' (reused connection)' : ''}`;
      noAnswer.set(reason, (noAnswer.get(reason) ?? 0) + 1);
      resolve(0);
    });
    call.once('socket', () => onSocket(performance.now()));
    call.end();
  });
}

async function main() {
  await withGatewayProcess(async (gateway) => {
    const signUp = await fetch(`${gateway.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: localDefaults.anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'overload@example.com', password: 'overload-pass-123' }),
    });
    const session = (await signUp.json()) as { access_token: string; user: { id: string } };
    const url = new URL(`/rest/v1/profiles?select=*&id=eq.${session.user.id}`, gateway.url);
    const headers = { apikey: localDefaults.anonKey, Authorization: `Bearer ${session.access_token}` };

    const closedLoop = new Agent({ keepAlive: true, maxSockets: CAPACITY_CLIENTS });
    let served = 0;
    const capacityStarted = performance.now();
    await Promise.all(
      Array.from({ length: CAPACITY_CLIENTS }, async () => {
        while (performance.now() - capacityStarted < CAPACITY_MS) {
          if ((await get(closedLoop, url, headers)) === 200) served++;
        }
      }),
    );
    const capacity = served / ((performance.now() - capacityStarted) / 1000);
    closedLoop.destroy();
    const rate = OFFERED_PER_SECOND;
    console.log(
      `capacity ${capacity.toFixed(0)} req/s; now ${rate.toFixed(0)} req/s for ${OVERLOAD_MS / 1000} s…`,
    );

    const openLoop = new Agent({ keepAlive: true, maxSockets: 2_000 });
    const admittedLatencies: number[] = [];
    // From the moment the request had a connection: what the gateway (and the kernel under it) took.
    const admittedOnConnection: number[] = [];
    const statuses = new Map<number, number>();
    const calls: Promise<void>[] = [];
    // The generator shares the machine's cores: how late its own loop was, time it adds to every latency.
    const generatorLateness: number[] = [];
    let tickDue = performance.now() + 20;
    const generatorTicks = setInterval(() => {
      generatorLateness.push(Math.max(0, performance.now() - tickDue));
      tickDue = performance.now() + 20;
    }, 20);
    const started = performance.now();
    for (let index = 0; ; index++) {
      const due = started + (index * 1000) / rate;
      if (due - started >= OVERLOAD_MS) break;
      if (due > performance.now()) await sleep(due - performance.now());
      const sent = performance.now();
      let connected = sent;
      calls.push(
        get(openLoop, url, headers, (at) => (connected = at)).then((status) => {
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status === 200) {
            admittedLatencies.push(performance.now() - sent);
            admittedOnConnection.push(performance.now() - connected);
          }
        }),
      );
    }
    const issuedPerSecond = calls.length / ((performance.now() - started) / 1000);
    await Promise.all(calls);
    clearInterval(generatorTicks);
    const seconds = (performance.now() - started) / 1000;
    openLoop.destroy();
    const peakRssMb = await gateway.peakRssMb();

    admittedLatencies.sort((a, b) => a - b);
    const total = calls.length;
    const ok = statuses.get(200) ?? 0;
    const refused = statuses.get(503) ?? 0;
    const other = total - ok - refused;
    const goodput = ok / seconds;
    const admittedP95 = percentile(admittedLatencies, 0.95);
    console.table([
      {
        'capacity req/s': Number(capacity.toFixed(0)),
        'asked req/s': rate,
        'issued req/s': Number(issuedPerSecond.toFixed(0)),
        'offered req/s': Number((total / seconds).toFixed(0)),
        'goodput req/s': Number(goodput.toFixed(0)),
        '503 share %': Number(((refused / total) * 100).toFixed(1)),
        'admitted p50 ms': Number(percentile(admittedLatencies, 0.5).toFixed(1)),
        'admitted p95 ms': Number(admittedP95.toFixed(1)),
        'admitted p95 ms from the connection': Number(percentile(admittedOnConnection, 0.95).toFixed(1)),
        'generator loop late p95 ms': Number(percentile(generatorLateness, 0.95).toFixed(1)),
        other: JSON.stringify(
          Object.fromEntries([...statuses].filter(([status]) => status !== 200 && status !== 503)),
        ),
        'load average': loadavg()[0]?.toFixed(1),
      },
    ]);
    if (noAnswer.size > 0) console.log('no answer, by error:', Object.fromEntries(noAnswer));
    const overloadFactor = issuedPerSecond / capacity;
    await reportBudgetChecks(
      {
        'issued req/s': reachedLoad(issuedPerSecond, OFFERED_PER_SECOND, 'req/s'),
        'issued / capacity': [
          Number(overloadFactor.toFixed(2)),
          `≥ ${BUDGET.overloadFactor}`,
          overloadFactor >= BUDGET.overloadFactor,
          'DID NOT OVERLOAD',
        ],
        'goodput / capacity': [
          Number((goodput / capacity).toFixed(2)),
          `≥ ${BUDGET.goodputShare}`,
          goodput / capacity >= BUDGET.goodputShare,
        ],
        'admitted p95 ms': [
          Number(admittedP95.toFixed(1)),
          `≤ ${BUDGET.admittedP95Ms}`,
          admittedP95 <= BUDGET.admittedP95Ms,
        ],
        'answers other than 200/503': [other, '0', other === 0],
        'gateway peak RSS MB': [Number(peakRssMb.toFixed(1)), `≤ ${BUDGET.rssMb}`, peakRssMb <= BUDGET.rssMb],
      },
      {
        'capacity req/s': Number(capacity.toFixed(0)),
        'goodput req/s': Number(goodput.toFixed(0)),
        '503 share %': Number(((refused / total) * 100).toFixed(1)),
      },
    );
  });
}

await main();
