/**
 * Lighthouse (its Node API, mobile: a Moto G Power-sized screen, 4x slower CPU, slow 4G simulated) on the
 * production build served by the local app server (security headers, compression), in Debian's Chromium
 * (headless, nothing downloaded): `/`, `/login`, `/signup` signed out, and `/user/wallet` signed in as the
 * seeded user. Each page is audited `RUNS` (5) times in a fresh tab with an empty HTTP cache (the signed-in
 * page keeps its session, and only its session: Lighthouse's own storage reset would sign it out, so the
 * cache is emptied before each of its runs instead); the median score of each category counts. Five runs,
 * as Lighthouse's docs/variability.md advises (their median is twice as stable as one run): on a shared
 * host one run's blocking time moves by 100 ms or more. A
 * category whose audits carry no weight on a page has no score, and fails rather than counting as full.
 * Budgets: performance >= 95 (the issue's target), accessibility, best practices and SEO 100.
 *
 * The wallet is audited in both of its states. As people return to it, the sign-in having met the
 * 'Important Transaction Limits' notice and pressed I Understand, as the specification's once-a-session
 * flag intends: all four budgets. And on the first visit of a browser session, the notice coming up 1.5 s
 * after the page: accessibility, best practices and SEO 100 with the notice open; its performance is
 * printed and recorded but not budgeted, because Lighthouse's Speed Index counts the specification's
 * 1.5 s delay as the page drawing late (the page is complete before the notice; the frame changes again
 * when it comes). What the notice costs the page's main thread shows in that row's blocking time.
 *
 * One audit is excused by name where failing it is the point: `/robots.txt` keeps search engines out of
 * the signed-in area (tests/browser/smoke.spec.ts), so Lighthouse's "Page isn't blocked from indexing"
 * fails on `/user/wallet`. That page's SEO budget is held on its other audits, and the table prints the
 * raw score beside it.
 *
 * Runs its own throwaway stack: `npm run bench -- lighthouse` (`LIGHTHOUSE_RUNS=9` for more runs,
 * `LIGHTHOUSE_REPORTS=<folder>` to keep each run's full report as JSON, `LIGHTHOUSE_ARTIFACTS=<folder>` to
 * keep each run's trace and network log too (the long tasks behind the blocking time are in the trace),
 * `LIGHTHOUSE_PAGES=/login,/signup` to audit only those pages while working on them, `/user/wallet` its
 * two states; the budget holds for all of them).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type { Result } from 'lighthouse';
import { seededAccounts } from '../supabase/seed-accounts';
import { buildApp, serveApp } from '../devstack/src/app-server';
import { startStack } from '../devstack/src/stack';
import { reportBudgetChecks, type BudgetCheck } from './support/budget-checks';
import { percentile } from './support/stats';

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 5);
const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof categories)[number];
const budgets: Record<Category, number> = {
  performance: 95,
  accessibility: 100,
  'best-practices': 100,
  seo: 100,
};

interface AuditedPage {
  /** The name in the tables: the path, and the page's state where it is audited in two. */
  name: string;
  path: string;
  signedIn: boolean;
  /** The limits notice comes up, as on the first visit of a browser session; not budgeted on performance. */
  firstVisitOfSession?: boolean;
  /** Audits whose failure this page is meant to have, with the reason. */
  excused?: Record<string, string>;
}

const signedInArea = { 'is-crawlable': 'robots.txt keeps search engines out of the signed-in area' };
const allPages: AuditedPage[] = [
  { name: '/', path: '/', signedIn: false },
  { name: '/login', path: '/login', signedIn: false },
  { name: '/signup', path: '/signup', signedIn: false },
  { name: '/user/wallet', path: '/user/wallet', signedIn: true, excused: signedInArea },
  {
    name: '/user/wallet, first visit of the session',
    path: '/user/wallet',
    signedIn: true,
    firstVisitOfSession: true,
    excused: signedInArea,
  },
];
const chosenPaths = process.env.LIGHTHOUSE_PAGES?.split(',');
const pages = chosenPaths ? allPages.filter((page) => chosenPaths.includes(page.path)) : allPages;
if (pages.length === 0)
  throw new Error(
    `LIGHTHOUSE_PAGES names none of ${[...new Set(allPages.map((page) => page.path))].join(', ')}`,
  );

const numericAudit = (result: Result, id: string) =>
  Math.round(result.audits[id]?.numericValue ?? Number.NaN);
/** The measurements behind the performance score, which vary less with the machine's load than it does. */
const metrics: Record<string, (result: Result) => number> = {
  'FCP ms': (result) => numericAudit(result, 'first-contentful-paint'),
  'LCP ms': (result) => numericAudit(result, 'largest-contentful-paint'),
  'TBT ms': (result) => numericAudit(result, 'total-blocking-time'),
  'SI ms': (result) => numericAudit(result, 'speed-index'),
  KiB: (result) => Math.round(numericAudit(result, 'total-byte-weight') / 1024),
  scripts: (result) =>
    (
      (result.audits['network-requests']?.details as { items?: { resourceType?: string }[] } | undefined)
        ?.items ?? []
    ).filter((request) => request.resourceType === 'Script').length,
  requests: (result) =>
    ((result.audits['network-requests']?.details as { items?: unknown[] } | undefined)?.items ?? []).length,
};

/**
 * A category's score (0–100) from its audits' weighted scores, leaving out the excused audits; NaN when no
 * scored audit carries a weight (nothing was measured, which is no score, not full marks).
 */
function categoryScore(result: Result, category: Category, excused: readonly string[]): number {
  const refs = result.categories[category]?.auditRefs ?? [];
  let weighted = 0;
  let weights = 0;
  for (const ref of refs) {
    if (ref.weight === 0 || excused.includes(ref.id)) continue;
    const score = result.audits[ref.id]?.score;
    // Not applicable and informative audits have no score and do not count, as in Lighthouse's own sum.
    if (score === null || score === undefined) continue;
    weighted += score * ref.weight;
    weights += ref.weight;
  }
  return weights === 0 ? Number.NaN : Math.round((weighted / weights) * 100);
}

/** The audits that cost points in a category: id, title and score. */
function shortfalls(result: Result, category: Category): string[] {
  return (result.categories[category]?.auditRefs ?? [])
    .filter((ref) => ref.weight > 0)
    .map((ref) => result.audits[ref.id])
    .filter((audit) => audit && audit.score !== null && audit.score < 1)
    .map(
      (audit) =>
        `${audit?.id} (${audit?.score}${audit?.displayValue ? `, ${audit.displayValue}` : ''}): ${audit?.title}`,
    );
}

async function main() {
  const stack = await startStack();
  const buildDir = await mkdtemp(path.join(tmpdir(), 'coinvault-lighthouse-'));
  const profileDir = await mkdtemp(path.join(tmpdir(), 'coinvault-lighthouse-profile-'));
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    await buildApp({ outDir: buildDir, apiUrl: stack.apiUrl, anonKey: stack.anonKey });
    const app = await serveApp({ rootDir: buildDir });
    try {
      // Visitors meet a running market function; its first start (Deno boot) is not the page's cost.
      await fetch(
        `${stack.apiUrl}/functions/v1/market/coins/markets?vs_currency=usd&order=market_cap_desc&per_page=10&page=1&sparkline=false`,
      );
      chrome = await chromeLauncher.launch({
        chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        userDataDir: profileDir,
        chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
      });
      const rows: Record<string, Record<string, number | string>> = {};
      const metricRows: Record<string, Record<string, number>> = {};
      const checks: Record<string, BudgetCheck> = {};
      const figures: Record<string, number> = {};
      const lost: string[] = [];
      let signedIn = false;
      for (const audited of pages) {
        if (audited.signedIn && !signedIn) {
          await signIn(chrome.port, app.url);
          signedIn = true;
        }
        const excused = Object.keys(audited.excused ?? {});
        const scores = Object.fromEntries(categories.map((category) => [category, [] as number[]])) as Record<
          Category,
          number[]
        >;
        const raw: number[] = [];
        const measured = Object.fromEntries(Object.keys(metrics).map((name) => [name, [] as number[]]));
        for (let run = 0; run < RUNS; run++) {
          if (audited.signedIn) await prepareSignedInRun(chrome.port, app.url, audited.firstVisitOfSession);
          const runName = `${audited.name.replaceAll(/[^a-z]+/g, '_')}-${run}`;
          const artifacts =
            process.env.LIGHTHOUSE_ARTIFACTS && path.join(process.env.LIGHTHOUSE_ARTIFACTS, runName);
          const answer = await lighthouse(
            `${app.url}${audited.path}`,
            {
              port: chrome.port,
              output: 'json',
              logLevel: 'error',
              onlyCategories: [...categories],
              // The signed-in page needs the session the sign-in left in this profile.
              disableStorageReset: audited.signedIn,
              // Gathered into the folder, then audited from it (Lighthouse's -GA).
              ...(artifacts && { gatherMode: artifacts, auditMode: artifacts }),
            },
            undefined,
          );
          if (!answer) throw new Error(`Lighthouse gave no result for ${audited.name}`);
          const result = answer.lhr;
          if (process.env.LIGHTHOUSE_REPORTS) {
            await writeFile(
              path.join(process.env.LIGHTHOUSE_REPORTS, `${runName}.json`),
              JSON.stringify(result),
            );
          }
          if (result.runtimeError) throw new Error(`${audited.name}: ${result.runtimeError.message}`);
          for (const category of categories) {
            scores[category].push(categoryScore(result, category, excused));
            if (run === RUNS - 1) {
              for (const line of shortfalls(result, category))
                lost.push(`${audited.name} ${category}: ${line}`);
            }
          }
          raw.push(Math.round((result.categories.seo?.score ?? 0) * 100));
          for (const [name, read] of Object.entries(metrics)) measured[name]?.push(read(result));
        }
        const row: Record<string, number | string> = {};
        for (const category of categories) {
          const median = percentile(scores[category], 0.5);
          row[category] = median;
          // A run without a score for the category makes the median no score either.
          const scored = scores[category].every((score) => Number.isFinite(score));
          if (audited.firstVisitOfSession && category === 'performance') {
            figures[`${audited.name} ${category}`] = median;
            continue;
          }
          checks[`${audited.name} ${category}`] = [
            scored ? median : Number.NaN,
            `>= ${budgets[category]}`,
            scored && median >= budgets[category],
            scored ? 'OVER BUDGET' : 'NO SCORE (no weighted audit)',
          ];
        }
        row['seo (raw)'] = percentile(raw, 0.5);
        row.excused = Object.entries(audited.excused ?? {})
          .map(([id, why]) => `${id}: ${why}`)
          .join('; ');
        rows[audited.name] = row;
        metricRows[audited.name] = {
          ...Object.fromEntries(
            Object.entries(measured).map(([name, values]) => [name, percentile(values, 0.5)]),
          ),
          // Scores drop when the machine is busy: the load average beside them says how busy it was.
          'load (1 min)': Number(loadavg()[0]?.toFixed(1)),
        };
      }
      console.log(`Lighthouse, mobile, median of ${RUNS} runs per page`);
      console.table(rows);
      console.log(
        `What performance is scored on (simulated slow 4G, median of ${RUNS} runs), and the machine's load`,
      );
      console.table(metricRows);
      if (lost.length > 0) console.log(`Audits short of full marks (last run):\n${lost.join('\n')}`);
      if (Object.keys(figures).length > 0) console.log('Recorded, not budgeted:', figures);
      await reportBudgetChecks(checks, figures);
    } finally {
      await app.stop();
    }
  } finally {
    chrome?.kill();
    await stack.stop();
    await rm(buildDir, { recursive: true, force: true });
    await rm(profileDir, { recursive: true, force: true, maxRetries: 3 });
  }
}

/**
 * Empties the browser's HTTP cache (the session stays in local storage), so each run of the signed-in page
 * loads its code and data as a first visit of the day does; on the first visit of a browser session, also
 * the session cookie that says the limits notice was seen (the specification's hasSeenLimits).
 */
async function prepareSignedInRun(port: number, appUrl: string, firstVisitOfSession = false) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0];
    if (!context) throw new Error('Chromium has no default context');
    const page = await context.newPage();
    const session = await context.newCDPSession(page);
    await session.send('Network.clearBrowserCache');
    if (firstVisitOfSession)
      await session.send('Network.deleteCookies', { name: 'hasSeenLimits', url: appUrl });
    await page.close();
  } finally {
    await browser.close();
  }
}

/**
 * Logs the seeded user in through the log-in page, in the browser Lighthouse drives (its profile keeps the
 * session), and answers the limits notice on arriving at the wallet, as a person does once a session.
 */
async function signIn(port: number, appUrl: string) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0];
    if (!context) throw new Error('Chromium has no default context');
    const page = await context.newPage();
    await page.goto(`${appUrl}/login`);
    await page.getByLabel('Email').fill(seededAccounts.user.email);
    await page.getByLabel('Password', { exact: true }).fill(seededAccounts.user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/user\/wallet$/);
    await page.getByRole('button', { name: 'I Understand' }).click();
    await page.close();
  } finally {
    await browser.close();
  }
}

await main();
