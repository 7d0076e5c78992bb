import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { brotliCompress, gzip } from 'node:zlib';

const run = promisify(execFile);
const projectRoot = new URL('../../', import.meta.url).pathname;

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Where the built app talks to: the Supabase API (REST, Auth, Functions, Realtime) and the market feed. */
export interface AppOrigins {
  supabaseUrl: string;
  marketApiUrl?: string;
}

/**
 * The Content-Security-Policy of every page: scripts only from the app's own origin, and inline only the
 * page's own `inlineScripts` (by their SHA-256: any other inline script is refused); connections only to
 * the app, the Supabase API and its Realtime WebSocket (and the market feed), and no framing at all.
 * Styles may be inline: the toasts inject their style sheet at run time, and style attributes cannot run
 * code.
 */
export function contentSecurityPolicy(
  { supabaseUrl, marketApiUrl }: AppOrigins,
  inlineScripts: readonly string[] = [],
): string {
  const api = new URL(supabaseUrl);
  const realtime = `${api.protocol === 'https:' ? 'wss:' : 'ws:'}//${api.host}`;
  const connect = new Set(["'self'", api.origin, realtime]);
  if (marketApiUrl) connect.add(new URL(marketApiUrl).origin);
  const scripts = inlineScripts.map(
    (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`,
  );
  return [
    "default-src 'self'",
    `script-src ${["'self'", ...scripts].join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    // Coin logos come from the market provider's image host (or the local simulator, on the API origin).
    `img-src 'self' data: blob: https: ${api.origin}`,
    "font-src 'self'",
    `connect-src ${[...connect].join(' ')}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The headers every page of the app is sent with, the policy allowing the page's `inlineScripts`; `csp:
 * false` for Vite's dev server (see vite.config.ts).
 */
export function securityHeaders(
  origins: AppOrigins,
  { csp = true, inlineScripts = [] }: { csp?: boolean; inlineScripts?: readonly string[] } = {},
): Record<string, string> {
  return {
    ...(csp ? { 'Content-Security-Policy': contentSecurityPolicy(origins, inlineScripts) } : {}),
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
  };
}

/** `dist/_headers` (Netlify and Cloudflare Pages format): the security headers for every path. */
export function headersFile(origins: AppOrigins, inlineScripts: readonly string[]): string {
  const lines = Object.entries(securityHeaders(origins, { inlineScripts })).map(
    ([name, value]) => `  ${name}: ${value}`,
  );
  return `/*\n${lines.join('\n')}\n`;
}

/** Reads `_headers` back (its `/*` block), so the app server sends exactly what a static host would. */
function parseHeadersFile(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s+([A-Za-z-]+):\s*(.+)$/.exec(line);
    if (match?.[1] && match[2]) headers[match[1]] = match[2];
  }
  return headers;
}

/** Text worth compressing; images and fonts are compressed already. */
const compressible = new Set(['.html', '.js', '.css', '.json', '.svg', '.txt']);

type Encoding = 'br' | 'gzip';
const compressors: Record<Encoding, (data: Buffer) => Promise<Buffer>> = {
  br: promisify(brotliCompress),
  gzip: (data) => promisify(gzip)(data, { level: 9 }),
};

/**
 * Compressed files of one build, each made once: a build does not change while it is served, and brotli
 * at its best quality costs about 0.2 s of CPU per 100 KB of script, which paid on every request (every
 * fresh browser) held a page's scripts back by a second on a busy machine, as hosts that compress static
 * files ahead of time do not.
 */
function compressedFiles() {
  const made = new Map<string, Promise<Buffer>>();
  const get = (file: string, encoding: Encoding) => {
    const key = `${encoding}:${file}`;
    let body = made.get(key);
    if (!body) {
      body = readFile(file).then(compressors[encoding]);
      made.set(key, body);
      body.catch(() => made.delete(key));
    }
    return body;
  };
  /** Compresses every text file of the build for browsers (brotli) in the background. */
  const prepare = async (root: string) => {
    const files = await readdir(root, { recursive: true });
    for (const file of files) {
      if (compressible.has(path.extname(file))) await get(path.join(root, file), 'br').catch(() => undefined);
    }
  };
  return { get, prepare };
}

/** Builds the app with Vite into `outDir`, pointed at the given API. */
export async function buildApp({
  outDir,
  apiUrl,
  anonKey,
}: {
  outDir: string;
  apiUrl: string;
  anonKey: string;
}) {
  await run(
    path.join(projectRoot, 'node_modules/.bin/vite'),
    ['build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    {
      cwd: projectRoot,
      env: { ...process.env, VITE_SUPABASE_URL: apiUrl, VITE_SUPABASE_ANON_KEY: anonKey },
      maxBuffer: 16 * 1024 * 1024,
    },
  );
}

export interface RunningAppServer {
  url: string;
  server: Server;
  stop(): Promise<void>;
}

/**
 * Serves a built app: files from `rootDir`, and `index.html` for every other path so client-side
 * routes load on a refresh or a deep link (SPA fallback). Hashed assets are cached for a year. Every
 * answer carries the security headers of the build's `_headers` file, and text is compressed (brotli or
 * gzip, as the browser accepts; each file once, see `compressedFiles`).
 */
export async function serveApp({
  rootDir,
  port = 0,
  host = '127.0.0.1',
}: {
  rootDir: string;
  port?: number;
  host?: string;
}): Promise<RunningAppServer> {
  const root = path.resolve(rootDir);
  const headers = parseHeadersFile(await readFile(path.join(root, '_headers'), 'utf8'));
  const compressed = compressedFiles();
  void compressed.prepare(root);
  const server = createServer((request, response) => {
    void (async () => {
      const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://app').pathname);
      for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
      if (pathname === '/_headers') {
        response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
        return response.end('Not found');
      }
      let file = path.join(root, pathname);
      // Never outside the build folder.
      if (!file.startsWith(root + path.sep) && file !== root) file = path.join(root, 'index.html');
      const found = await stat(file).catch(() => undefined);
      const isAsset = found?.isFile() === true;
      if (!isAsset) {
        if (path.extname(pathname) && pathname.startsWith('/assets/')) {
          response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
          return response.end('Not found');
        }
        file = path.join(root, 'index.html');
      }
      const accepted = String(request.headers['accept-encoding'] ?? '');
      const encoding: Encoding | undefined = !compressible.has(path.extname(file))
        ? undefined
        : /\bbr\b/.test(accepted)
          ? 'br'
          : /\bgzip\b/.test(accepted)
            ? 'gzip'
            : undefined;
      const body = encoding ? await compressed.get(file, encoding) : undefined;
      response.writeHead(200, {
        'Content-Type': contentTypes[path.extname(file)] ?? 'application/octet-stream',
        'Cache-Control':
          isAsset && pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        Vary: 'Accept-Encoding',
        ...(encoding ? { 'Content-Encoding': encoding } : {}),
      });
      if (request.method === 'HEAD') return response.end();
      if (body) response.end(body);
      else createReadStream(file).pipe(response);
    })().catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const boundPort = (server.address() as AddressInfo).port;
  return {
    url: `http://${host === '0.0.0.0' ? 'localhost' : host}:${boundPort}`,
    server,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
