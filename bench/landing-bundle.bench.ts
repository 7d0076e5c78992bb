/**
 * JavaScript a visitor downloads for `/`: every script the page loads (entry, lazy route chunks,
 * shared chunks), gzip-compressed. Budget: <= 100 KiB, and none of it from the signed-in areas
 * (`/user`, `/admin` routes and their features), the form libraries (react-hook-form, zod,
 * @hookform/resolvers), supabase-js, TanStack Query or the toaster (sonner).
 *
 * Builds the app with source maps into a temporary folder, serves it, opens `/` in Chromium and
 * attributes each chunk's minified bytes to the packages and source folders it came from.
 * Run: `npm run bench -- landing-bundle`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { serveApp } from '../devstack/src/app-server';
import { localDefaults } from '../devstack/src/config';

const BUDGET_BYTES = 100 * 1024;
const projectRoot = new URL('../', import.meta.url).pathname;

/** Sources that must never reach a visitor of `/`. */
const forbidden: { pattern: RegExp; why: string }[] = [
  { pattern: /src\/app\/routes\/(user|admin)\//, why: 'signed-in route' },
  {
    pattern: /src\/features\/(wallet|buy|withdraw|account|admin|transactions|users|watchlist|statements)\//,
    why: 'signed-in feature',
  },
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
    const summary = {
      'total gzip': kib(totalGzip),
      budget: kib(BUDGET_BYTES),
      'signed-in code or form libraries': violations.length,
    };
    console.table(summary);
    if (violations.length > 0) console.log([...new Set(violations)].join('\n'));
    if (totalGzip > BUDGET_BYTES || violations.length > 0) {
      console.log('✗ over budget');
      process.exitCode = 1;
    } else console.log('✓ within budget');
  } finally {
    await browser.close();
    await rm(outDir, { recursive: true, force: true });
  }
}

await main();
