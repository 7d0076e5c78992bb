/**
 * JavaScript a visitor downloads for `/`: every script the page loads (entry, lazy route chunks,
 * shared chunks), gzip-compressed. Budget: <= 100 KiB, and none of it from another page: the forbidden
 * sources are derived from the routes (src/app/router.tsx and src/app/routes), every route module the
 * router does not import eagerly (the signed-in areas, log-in and account pages, the other public pages,
 * the landing's signed-in watchlist) and every feature those modules import that the landing's eager
 * route modules do not; and none from the form libraries (react-hook-form, zod, @hookform/resolvers),
 * supabase-js, TanStack Query or the toaster (sonner).
 *
 * Builds the app with source maps into a temporary folder, serves it, opens `/` in Chromium and
 * attributes each chunk's minified bytes to the packages and source folders it came from.
 * Run: `npm run bench -- landing-bundle`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { serveApp } from '../devstack/src/app-server';
import { localDefaults } from '../devstack/src/config';
import { reportBudgetChecks } from './support/budget-checks';

const BUDGET_BYTES = 100 * 1024;
const projectRoot = new URL('../', import.meta.url).pathname;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The features (`src/features/<name>`) the route modules import. */
async function featuresOf(routeModules: readonly string[]): Promise<Set<string>> {
  const features = new Set<string>();
  for (const module of routeModules) {
    const code = await readFile(path.join(projectRoot, 'src/app/routes', `${module}.tsx`), 'utf8');
    for (const [, feature] of code.matchAll(/from '@\/features\/([\w-]+)\//g)) features.add(feature ?? '');
  }
  return features;
}

/**
 * The route modules and features that are not the landing's, from the routes themselves: the route
 * modules the router imports eagerly are the landing and its layouts; every other one loads lazily, for
 * another page.
 */
async function otherPagesSources(): Promise<
  { pattern: RegExp; why: string; kind: string; names: string[] }[]
> {
  const router = await readFile(path.join(projectRoot, 'src/app/router.tsx'), 'utf8');
  const eager = [...router.matchAll(/^import \w+ from '\.\/routes\/([\w/-]+)';$/gm)].map(
    ([, name]) => name ?? '',
  );
  const routeFiles = await readdir(path.join(projectRoot, 'src/app/routes'), { recursive: true });
  const lazy = routeFiles
    .filter((file) => file.endsWith('.tsx') && !file.endsWith('.test.tsx'))
    .map((file) => file.replace(/\.tsx$/, ''))
    .filter((module) => !eager.includes(module))
    .sort();
  const landingFeatures = await featuresOf(eager);
  const otherFeatures = [...(await featuresOf(lazy))]
    .filter((feature) => !landingFeatures.has(feature))
    .sort();
  if (eager.length === 0 || lazy.length === 0 || otherFeatures.length === 0) {
    throw new Error('No route modules or features found for other pages: has src/app/router.tsx moved?');
  }
  return [
    {
      pattern: new RegExp(`src/app/routes/(${lazy.map(escape).join('|')})\\.tsx$`),
      why: 'route module of another page',
      kind: 'route modules',
      names: lazy,
    },
    {
      pattern: new RegExp(`src/features/(${otherFeatures.map(escape).join('|')})/`),
      why: 'feature of another page',
      kind: 'features',
      names: otherFeatures,
    },
  ];
}

/** Libraries that must never reach a visitor of `/`. */
const forbiddenLibraries: { pattern: RegExp; why: string }[] = [
  {
    pattern: /node_modules\/(react-hook-form|zod|@hookform\/resolvers)\//,
    why: 'form library',
  },
  // The wallet's history chart loads it lazily, on the wallet page alone.
  { pattern: /node_modules\/uplot\//, why: 'chart library' },
  // Nobody on `/` has a session to restore, server data to cache or a toast to see.
  {
    pattern: /node_modules\/(@supabase\/|@tanstack\/|sonner\/)/,
    why: 'session client, server-data cache or toaster',
  },
];

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Decodes one source-map `mappings` line into [generated column, source index] pairs. */
function segmentsOfLine(line: string, state: { source: number }): [number, number][] {
  const segments: [number, number][] = [];
  let column = 0;
  for (const segment of line.split(',')) {
    if (!segment) continue;
    const values: number[] = [];
    let value = 0;
    let shift = 0;
    for (const character of segment) {
      const digit = BASE64.indexOf(character);
      value += (digit & 31) << shift;
      if (digit & 32) shift += 5;
      else {
        values.push(value & 1 ? -(value >>> 1) : value >>> 1);
        value = 0;
        shift = 0;
      }
    }
    column += values[0] ?? 0;
    if (values.length >= 4) state.source += values[1] ?? 0;
    segments.push([column, values.length >= 4 ? state.source : -1]);
  }
  return segments;
}

/** Minified bytes per original source file of one chunk. */
function bytesBySource(code: string, map: { sources: string[]; mappings: string }): Map<string, number> {
  const totals = new Map<string, number>();
  const lines = code.split('\n');
  const state = { source: 0 };
  map.mappings.split(';').forEach((mappingLine, lineIndex) => {
    const text = lines[lineIndex] ?? '';
    const segments = segmentsOfLine(mappingLine, state);
    segments.forEach(([start, source], index) => {
      const end = segments[index + 1]?.[0] ?? text.length;
      const name = source >= 0 ? (map.sources[source] ?? '(unknown)') : '(generated)';
      totals.set(name, (totals.get(name) ?? 0) + Math.max(0, end - start));
    });
  });
  return totals;
}

/** `node_modules/@scope/pkg/…` → `@scope/pkg`; `src/features/x/…` → `src/features/x`. */
function origin(source: string): string {
  const modules = source.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (modules?.[1]) return modules[1];
  const app = source.match(/src\/(features\/[^/]+|app\/routes|app|components\/[^/]+|lib|config)/);
  return app?.[1] ? `src/${app[1]}` : source.replace(/^(\.\.\/)+/, '');
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

async function main() {
  const otherPages = await otherPagesSources();
  for (const { kind, names } of otherPages) {
    console.log(`Other pages' ${kind} (from the routes), forbidden on /: ${names.join(', ')}`);
  }
  const forbidden = [...otherPages, ...forbiddenLibraries];
  const outDir = await mkdtemp(path.join(tmpdir(), 'coinvault-bundle-'));
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
  try {
    await promisify(execFile)(
      path.join(projectRoot, 'node_modules/.bin/vite'),
      ['build', '--outDir', outDir, '--emptyOutDir', '--sourcemap', 'hidden', '--logLevel', 'error'],
      {
        cwd: projectRoot,
        env: {
          ...process.env,
          VITE_SUPABASE_URL: `http://127.0.0.1:${localDefaults.apiPort}`,
          VITE_SUPABASE_ANON_KEY: localDefaults.anonKey,
        },
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const app = await serveApp({ rootDir: outDir });
    const scripts = new Set<string>();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.origin === app.url && url.pathname.endsWith('.js')) scripts.add(url.pathname);
      });
      await page.goto(`${app.url}/`, { waitUntil: 'networkidle' });
      await page.getByRole('heading', { name: 'Live Cryptocurrency Market Data' }).waitFor();
      await page.waitForLoadState('networkidle');
    } finally {
      await app.stop();
    }

    const chunks: { chunk: string; raw: string; gzip: string }[] = [];
    const byOrigin = new Map<string, number>();
    const violations: string[] = [];
    let totalGzip = 0;
    for (const script of [...scripts].sort()) {
      const file = path.join(outDir, script);
      const code = await readFile(file, 'utf8');
      const gzip = gzipSync(code, { level: 9 }).length;
      totalGzip += gzip;
      chunks.push({ chunk: script, raw: kib(Buffer.byteLength(code)), gzip: kib(gzip) });
      // Bundler-generated chunks (the module runtime) come without a source map.
      const mapText = await readFile(`${file}.map`, 'utf8').catch(() => undefined);
      const map = mapText
        ? (JSON.parse(mapText) as { sources: string[]; mappings: string })
        : { sources: [script], mappings: 'AAAA' };
      const totalBytes = code.length;
      for (const [source, bytes] of bytesBySource(code, map)) {
        // Each origin's share of the chunk's gzip size, in proportion to its minified bytes.
        const key = origin(source);
        byOrigin.set(key, (byOrigin.get(key) ?? 0) + (gzip * bytes) / totalBytes);
        for (const { pattern, why } of forbidden) {
          if (pattern.test(source)) violations.push(`${why}: ${source} (in ${script})`);
        }
      }
    }

    console.log(`JavaScript loaded by / (gzip -9), ${chunks.length} chunks`);
    console.table(chunks);
    console.log('Share by origin (gzip, approximate)');
    console.table(
      [...byOrigin]
        .sort((a, b) => b[1] - a[1])
        .filter(([, bytes]) => bytes >= 256)
        .map(([from, bytes]) => ({ from, gzip: kib(bytes) })),
    );
    if (violations.length > 0) console.log([...new Set(violations)].join('\n'));
    await reportBudgetChecks({
      'total gzip KiB': [
        Number((totalGzip / 1024).toFixed(1)),
        `≤ ${kib(BUDGET_BYTES)}`,
        totalGzip <= BUDGET_BYTES,
      ],
      'sources of other pages or forbidden libraries': [violations.length, '0', violations.length === 0],
    });
  } finally {
    await browser.close();
    await rm(outDir, { recursive: true, force: true });
  }
}

await main();
