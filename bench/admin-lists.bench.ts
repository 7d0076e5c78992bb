/**
 * Time to the first page of each admin list with 100,000 transactions, 20,000 requests (10,000 buy,
 * 10,000 withdraw) and 20,000 audit entries across 1,000 people:
 * - query: the page statement and its `count(*)` as PostgREST runs them for the admin (role
 *   `authenticated`, JWT claims, row-level security on), in one transaction; p95 of 200 samples;
 * - API: the same page through the gateway with supabase-js (`range(0, 19)`, `count: 'exact'`), as the app asks;
 * - browser: the production build in Chromium, a fresh context per run (cold cache, signed in), from
 *   navigation start until the list's first row is on screen; median and worst of 5 runs.
 * Budgets: query p95 <= 50 ms, browser <= 1 s.
 *
 * Runs its own throwaway stack: `npm run bench -- admin-lists`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from '@playwright/test';
import type { WebSocketLikeConstructor } from '@supabase/realtime-js';
import { createClient } from '@supabase/supabase-js';
import pg from 'pg';
import ws from 'ws';
import { seededAccounts } from '../supabase/seed-accounts';
import { buildApp, serveApp } from '../devstack/src/app-server';
import { startStack } from '../devstack/src/stack';
import type { Database } from '../src/types/database';
import { logIn } from '../tests/browser/support/auth-people';
import { signInWithTotp } from '../tests/support/two-factor-sign-in';
import { loadBenchData } from './support/bulk-load';
import { percentile } from './support/stats';
import { recordRun } from './support/results';

const PEOPLE = 1_000;
const TRANSACTIONS = 100_000;
const BUY_REQUESTS = 10_000;
const WITHDRAW_REQUESTS = 10_000;
const AUDIT_ENTRIES = 20_000;
const PAGE_SIZE = 20;
const WARM_UP = 20;
const SAMPLES = 200;
const BROWSER_RUNS = 5;
const BUDGET_QUERY_P95_MS = 50;
const BUDGET_BROWSER_MS = 1_000;

type ListView =
  | 'users_with_balance'
  | 'transactions_with_user'
  | 'buy_requests_with_user'
  | 'withdraw_requests_with_user'
  | 'audit_log_with_actor';

/** Each admin list as its page asks for it (columns, newest first, then id for a stable order). */
const lists: {
  name: string;
  view: ListView;
  columns: string;
  newestFirst: string;
  path: string;
  rowTestId: string;
}[] = [
  {
    name: 'users',
    view: 'users_with_balance',
    columns:
      'id, email, full_name, role, available, registration_date, hold_until, withdrawals_locked, frozen, two_factor',
    newestFirst: 'registration_date',
    path: '/admin/users',
    rowTestId: 'admin-user-row',
  },
  {
    name: 'transactions',
    view: 'transactions_with_user',
    columns: 'id, user_id, full_name, email, type, amount, available, status, cryptocurrency, date',
    newestFirst: 'date',
    path: '/admin/transactions',
    rowTestId: 'admin-transaction-row',
  },
  {
    name: 'buy requests',
    view: 'buy_requests_with_user',
    columns: 'id, user_id, full_name, email, cryptocurrency, amount, available, status, date',
    newestFirst: 'date',
    path: '/admin/buy-requests',
    rowTestId: 'admin-buy-request-row',
  },
  {
    name: 'withdraw requests',
    view: 'withdraw_requests_with_user',
    columns: 'id, user_id, full_name, email, amount, available, withdraw_method, status, date',
    newestFirst: 'date',
    path: '/admin/withdraw-requests',
    rowTestId: 'admin-withdraw-request-row',
  },
  {
    name: 'audit log',
    view: 'audit_log_with_actor',
    columns: 'id, actor_id, actor_name, actor_email, action, target_table, target_id, details, at',
    newestFirst: 'at',
    path: '/admin/audit-log',
    rowTestId: 'audit-log-row',
  },
];

/** The lists' rows: requests and audit entries beside the people and their ledger. */
function load(db: pg.Pool) {
  return loadBenchData(db, { people: PEOPLE, transactions: TRANSACTIONS }, async (client, ids) => {
    await client.query(
      `insert into public.buy_requests (user_id, cryptocurrency, amount, status, date, decided_at)
       select ($1::uuid[])[1 + n % $2::int], 'bitcoin', 10 + n % 90,
              (array['pending', 'approved', 'rejected'])[1 + n % 3]::public.request_status, now() - make_interval(mins => n),
              case when n % 3 <> 0 then now() - make_interval(mins => n) end
       from generate_series(1, $3::int) as n`,
      [ids, PEOPLE, BUY_REQUESTS],
    );
    await client.query(
      `insert into public.withdraw_requests (user_id, amount, withdraw_method, status, date, encrypted_data)
       select ($1::uuid[])[1 + n % $2::int], 10 + n % 90,
              (array['bank', 'card', 'wallet'])[1 + n % 3]::public.withdraw_method,
              (array['approved', 'rejected', 'processing'])[1 + n % 3], now() - make_interval(mins => n),
              'bench-iv.bench-ciphertext.bench-key'
       from generate_series(1, $3::int) as n`,
      [ids, PEOPLE, WITHDRAW_REQUESTS],
    );
    await client.query(
      `insert into public.audit_log (actor_id, action, target_table, target_id, details, at)
       select ($1::uuid[])[1 + n % $2::int], 'transaction.set_status', 'transactions', gen_random_uuid(),
              jsonb_build_object('old', 'pending', 'new', 'complete'), now() - make_interval(mins => n)
       from generate_series(1, $3::int) as n`,
      [ids, PEOPLE, AUDIT_ENTRIES],
    );
  });
}

const ms = (value: number) => Number(value.toFixed(2));

/**
 * The page and its count as PostgREST runs them for a signed-in admin, in one transaction; elapsed ms of
 * both together and of the count alone (the part that grows with the table).
 */
async function timedQuery(
  client: pg.PoolClient,
  adminId: string,
  list: (typeof lists)[number],
): Promise<{ total: number; count: number }> {
  await client.query('begin');
  await client.query('set local role authenticated');
  await client.query(`select set_config('request.jwt.claims', $1, true)`, [
    JSON.stringify({ sub: adminId, role: 'authenticated', aal: 'aal2' }),
  ]);
  const started = performance.now();
  const page = await client.query({
    name: `page-${list.view}`,
    text: `select ${list.columns} from public.${list.view} order by ${list.newestFirst} desc, id limit ${PAGE_SIZE}`,
  });
  const countStarted = performance.now();
  await client.query({ name: `count-${list.view}`, text: `select count(*) from public.${list.view}` });
  const finished = performance.now();
  await client.query('commit');
  if (page.rowCount !== PAGE_SIZE)
    throw new Error(`${list.view}: expected a full page, got ${page.rowCount} rows`);
  return { total: finished - started, count: finished - countStarted };
}

async function main(): Promise<boolean> {
  const stack = await startStack();
  const pool = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
  pool.on('error', () => undefined);
  const buildDir = await mkdtemp(path.join(tmpdir(), 'coinvault-bench-'));
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
  try {
    const loadStarted = performance.now();
    await load(pool);
    console.log(
      `Loaded ${TRANSACTIONS.toLocaleString('en-US')} transactions, ${(BUY_REQUESTS + WITHDRAW_REQUESTS).toLocaleString('en-US')} requests and ${AUDIT_ENTRIES.toLocaleString('en-US')} audit entries across ${PEOPLE.toLocaleString('en-US')} people in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
    );

    const api = createClient<Database>(stack.apiUrl, stack.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: ws as unknown as WebSocketLikeConstructor },
    });
    const adminId = (await signInWithTotp(api, seededAccounts.admin)).user.id;

    const results: Record<string, Record<string, number>> = {};
    const client = await pool.connect();
    try {
      for (const list of lists) {
        const query: number[] = [];
        const count: number[] = [];
        const http: number[] = [];
        for (let i = 0; i < WARM_UP + SAMPLES; i++) {
          const queryMs = await timedQuery(client, adminId, list);
          const started = performance.now();
          const { error, count: rowCount } = await api
            .from(list.view)
            .select(list.columns, { count: 'exact' })
            .order(list.newestFirst, { ascending: false })
            .order('id')
            .range(0, PAGE_SIZE - 1);
          const httpMs = performance.now() - started;
          if (error) throw error;
          if (!rowCount) throw new Error(`${list.view}: no count`);
          if (i >= WARM_UP) {
            query.push(queryMs.total);
            count.push(queryMs.count);
            http.push(httpMs);
          }
        }
        results[list.name] = {
          'query median ms': ms(percentile(query, 0.5)),
          'query p95 ms': ms(percentile(query, 0.95)),
          'of which count p95 ms': ms(percentile(count, 0.95)),
          'API median ms': ms(percentile(http, 0.5)),
          'API p95 ms': ms(percentile(http, 0.95)),
        };
      }
    } finally {
      client.release();
    }

    await buildApp({ outDir: buildDir, apiUrl: stack.apiUrl, anonKey: stack.anonKey });
    const app = await serveApp({ rootDir: buildDir });
    try {
      // Sign in once through the log-in page; every run starts a fresh context from that saved session.
      const loginContext = await browser.newContext({ baseURL: app.url });
      const loginPage = await loginContext.newPage();
      await logIn(loginPage, seededAccounts.admin, /\/admin\/users$/);
      const storageState = await loginContext.storageState();
      await loginContext.close();

      for (const list of lists) {
        const runs: number[] = [];
        const scriptsDone: number[] = [];
        const roleAnswers: number[] = [];
        const readStarts: number[] = [];
        const readEnds: number[] = [];
        for (let run = 0; run < BROWSER_RUNS; run++) {
          const context = await browser.newContext({ storageState });
          const page = await context.newPage();
          await page.goto(`${app.url}${list.path}`);
          await page.getByTestId(list.rowTestId).first().waitFor();
          // performance.now() in the page counts from its navigation start.
          runs.push(await page.evaluate(() => performance.now()));
          // Where the time went: the page's scripts, then the list's read (from its request to its answer).
          const timing = await page.evaluate((view) => {
            const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
            const read = resources.find((entry) => entry.name.includes(`/rest/v1/${view}?`));
            const scripts = resources.filter(
              (entry) => entry.initiatorType === 'script' || entry.name.endsWith('.js'),
            );
            const role = resources.find((entry) => entry.name.includes('/rest/v1/profiles?'));
            return {
              roleAnswered: role?.responseEnd ?? Number.NaN,
              scriptsDone: Math.max(0, ...scripts.map((entry) => entry.responseEnd)),
              readStart: read?.startTime ?? Number.NaN,
              readEnd: read?.responseEnd ?? Number.NaN,
            };
          }, list.view);
          scriptsDone.push(timing.scriptsDone);
          roleAnswers.push(timing.roleAnswered);
          readStarts.push(timing.readStart);
          readEnds.push(timing.readEnd);
          await context.close();
        }
        const row = results[list.name] ?? {};
        row['browser median ms'] = Math.round(percentile(runs, 0.5));
        row['browser worst ms'] = Math.round(Math.max(...runs));
        row['scripts loaded median ms'] = Math.round(percentile(scriptsDone, 0.5));
        row['role read answered median ms'] = Math.round(percentile(roleAnswers, 0.5));
        row['list read sent median ms'] = Math.round(percentile(readStarts, 0.5));
        row['list read answered median ms'] = Math.round(percentile(readEnds, 0.5));
        results[list.name] = row;
      }
    } finally {
      await app.stop();
    }

    console.log(
      `\nFirst page (${PAGE_SIZE} rows + exact count) of each admin list: ${SAMPLES} query/API samples, ${BROWSER_RUNS} browser runs`,
    );
    console.table(results);
    const worstQuery = Math.max(...Object.values(results).map((row) => row['query p95 ms'] ?? Infinity));
    const worstBrowser = Math.max(
      ...Object.values(results).map((row) => row['browser worst ms'] ?? Infinity),
    );
    const queryMet = worstQuery <= BUDGET_QUERY_P95_MS;
    const browserMet = worstBrowser <= BUDGET_BROWSER_MS;
    console.log(
      `worst query p95: ${worstQuery} ms (budget <= ${BUDGET_QUERY_P95_MS} ms): ${queryMet ? 'met' : 'MISSED'}`,
    );
    console.log(
      `worst browser time to first rows: ${worstBrowser} ms (budget <= ${BUDGET_BROWSER_MS} ms): ${browserMet ? 'met' : 'MISSED'}`,
    );
    await recordRun(
      Object.fromEntries(
        Object.entries(results).flatMap(([list, row]) =>
          Object.entries(row).map(([figure, value]) => [`${list} ${figure}`, value]),
        ),
      ),
    );
    return queryMet && browserMet;
  } finally {
    await browser.close();
    await pool.end();
    await stack.stop();
    await rm(buildDir, { recursive: true, force: true });
  }
}

if (!(await main())) process.exitCode = 1;
