import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { createNodeClient, type NodeClient } from './node-client';
import { startStack, type RunningStack, type StackOptions } from '../../devstack/src/stack';

/**
 * Fault tests break the database or flood the gateway, so each file starts its own stack (its own
 * Postgres, its own gateway in this process: if the gateway's process ended, the test run would end
 * with it) rather than sharing the suite's.
 */
export function startFaultStack(gateway: StackOptions['gateway'] = {}): Promise<RunningStack> {
  return startStack({ seed: false, gateway });
}

export interface SignedUpPerson {
  id: string;
  accessToken: string;
}

/**
 * The file's own stack (started before its tests, stopped after them) and `people` people signed up on
 * it, read as `fault.stack` and `fault.person(index)` once the tests run.
 */
export function faultStackForFile({
  gateway = {},
  people = 1,
}: { gateway?: StackOptions['gateway']; people?: number } = {}) {
  let running: RunningStack | undefined;
  const signedUp: SignedUpPerson[] = [];
  beforeAll(async () => {
    running = await startFaultStack(gateway);
    for (let index = 0; index < people; index++) signedUp.push(await signUpOn(running));
  });
  afterAll(async () => {
    await running?.stop();
  });
  return {
    get stack(): RunningStack {
      if (!running) throw new Error('the fault stack has not started');
      return running;
    },
    person(index = 0): SignedUpPerson {
      const person = signedUp[index];
      if (!person) throw new Error(`no person ${index} signed up`);
      return person;
    },
  };
}

/** A new person signed up through the stack's Auth, as a visitor would. */
export async function signUpOn(stack: RunningStack): Promise<SignedUpPerson> {
  const response = await fetch(`${stack.apiUrl}/auth/v1/signup`, {
    method: 'POST',
    headers: { apikey: stack.anonKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: `fault-${randomUUID()}@example.com`, password: `pass-${randomUUID()}` }),
  });
  const session = (await response.json()) as { access_token: string; user: { id: string } };
  return { id: session.user.id, accessToken: session.access_token };
}

export interface Answer {
  status: number;
  /** `Retry-After`, when sent. */
  retryAfter: string | null;
  /** The `code` of a JSON error body. */
  code?: string;
  message?: string;
  elapsedMs: number;
}

/** Anything slower than this counts as a hang. */
export const hangMs = 20_000;

/** One call to the gateway, answered or timed out (a timeout is recorded as status 0). */
export async function call(stack: RunningStack, path: string, init: RequestInit = {}): Promise<Answer> {
  const started = performance.now();
  try {
    const response = await fetch(`${stack.apiUrl}${path}`, { ...init, signal: AbortSignal.timeout(hangMs) });
    const text = await response.text();
    let body: { code?: unknown; error_code?: unknown; message?: unknown; msg?: unknown } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      // Not JSON (an empty 204): no code.
    }
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      // GoTrue's body without an API-version header has a numeric `code` and the name in `error_code`.
      code: [body.code, body.error_code].find((code): code is string => typeof code === 'string'),
      message: String(body.message ?? body.msg ?? ''),
      elapsedMs: performance.now() - started,
    };
  } catch {
    return { status: 0, retryAfter: null, elapsedMs: performance.now() - started };
  }
}

export function restHeaders(stack: RunningStack, person: SignedUpPerson): Record<string, string> {
  return {
    apikey: stack.anonKey,
    Authorization: `Bearer ${person.accessToken}`,
    'Content-Type': 'application/json',
  };
}

/**
 * Calls made over and over by `clients` concurrent callers until stopped: what a fault test asserts on.
 * Each caller waits a little between calls so the traffic is steady without saturating a loaded machine.
 */
export function startTraffic(clients: number, makeCall: (index: number) => Promise<Answer>) {
  const answers: Answer[] = [];
  let running = true;
  const callers = Array.from({ length: clients }, async (_, index) => {
    while (running) {
      answers.push(await makeCall(index));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  return {
    answers,
    async stop() {
      running = false;
      await Promise.all(callers);
      return answers;
    },
  };
}

/** Calls until one answers `status` (at most `withinMs`): the first such answer's delay, or throws. */
export async function untilAnswered(
  makeCall: () => Promise<Answer>,
  status: number,
  withinMs = 15_000,
): Promise<number> {
  const started = performance.now();
  let last: Answer | undefined;
  while (performance.now() - started < withinMs) {
    last = await makeCall();
    if (last.status === status) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no ${status} within ${withinMs} ms; last answer ${JSON.stringify(last)}`);
}

/** The answers that are neither a success nor a 503 with `Retry-After`: what a fault must never cause. */
export function unexpectedAnswers(answers: Answer[]): Answer[] {
  return answers.filter(
    (answer) =>
      !(answer.status >= 200 && answer.status < 300) && !(answer.status === 503 && answer.retryAfter),
  );
}

export interface Listener {
  client: NodeClient;
  /** Ids of the buy requests whose changes arrived, in order. */
  changes: string[];
  /** Every status realtime-js reported for the channel, in order. */
  statuses: string[];
  errors: string[];
}

/** A person listening to their buy requests over Realtime with supabase-js, as the app's wallet does. */
export async function listenToBuyRequests(
  stack: RunningStack,
  person: SignedUpPerson,
  filter?: string,
): Promise<Listener> {
  const client = createNodeClient(stack.apiUrl, stack.anonKey);
  await client.realtime.setAuth(person.accessToken);
  const listener: Listener = { client, changes: [], statuses: [], errors: [] };
  client
    .channel(`buy-requests-${randomUUID()}`)
    .on(
      'postgres_changes',
      { event: '*', schema: 'public', table: 'buy_requests', ...(filter ? { filter } : {}) },
      (change) => {
        const row = (change.eventType === 'DELETE' ? change.old : change.new) as { id?: string };
        if (row.id) listener.changes.push(row.id);
      },
    )
    .subscribe((status, error) => {
      listener.statuses.push(status);
      if (error) listener.errors.push(error.message);
    });
  await waitUntil(() => listener.statuses.length > 0, 'the channel to answer');
  return listener;
}

/** Waits for a condition a person would see (polling), failing after `withinMs`. */
export async function waitUntil(condition: () => boolean, what: string, withinMs = 15_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A connection as the database operator. Fault tests end connections (`pg_terminate_backend`, restarts,
 * the stack's stop after a failed test): an ended client without an 'error' listener would end the test
 * run with an uncaught error, so it has one and its next statement rejects instead.
 */
export async function connectAsOperator(stack: RunningStack): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: stack.databaseUrl });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** A buy request written as the database operator: a change every listener of that person may see. */
export async function insertBuyRequest(stack: RunningStack, person: SignedUpPerson): Promise<string> {
  const operator = await connectAsOperator(stack);
  try {
    const { rows } = await operator.query<{ id: string }>(
      `insert into public.buy_requests (user_id, cryptocurrency, amount) values ($1, 'bitcoin', 10) returning id`,
      [person.id],
    );
    return rows[0]?.id ?? '';
  } finally {
    await operator.end();
  }
}

/** A person's own profile, read and renamed through REST: the calls fault tests make during a fault. */
export function profileCalls(stack: RunningStack, person: SignedUpPerson) {
  return {
    read: () =>
      call(stack, `/rest/v1/profiles?select=id&id=eq.${person.id}`, { headers: restHeaders(stack, person) }),
    rename: (fullName: string) =>
      call(stack, `/rest/v1/profiles?id=eq.${person.id}`, {
        method: 'PATCH',
        headers: restHeaders(stack, person),
        body: JSON.stringify({ full_name: fullName }),
      }),
  };
}

/** A stalled transaction holding a person's profile row locked until `release`: writes to it wait. */
export async function lockProfileRow(stack: RunningStack, person: SignedUpPerson) {
  const stalled = await connectAsOperator(stack);
  await stalled.query('begin');
  await stalled.query('select 1 from public.profiles where id = $1 for update', [person.id]);
  return {
    async release() {
      await stalled.query('rollback');
      await stalled.end();
    },
  };
}

/** Waits until `count` statements wait on a row lock: requests the gateway holds, as Postgres sees them. */
export async function untilWaitingOnLocks(stack: RunningStack, count: number): Promise<void> {
  const operator = await connectAsOperator(stack);
  try {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const { rows } = await operator.query<{ waiting: number }>(
        `select count(*)::int as waiting from pg_stat_activity where wait_event_type = 'Lock'`,
      );
      if ((rows[0]?.waiting ?? 0) >= count) return;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${count} statements on a lock`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await operator.end();
  }
}

/** One statement as the database operator. */
export async function asOperator(stack: RunningStack, sql: string): Promise<void> {
  const operator = await connectAsOperator(stack);
  try {
    await operator.query(sql);
  } finally {
    await operator.end();
  }
}
