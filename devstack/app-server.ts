import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
const projectRoot = new URL('../', import.meta.url).pathname;

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
 * routes load on a refresh or a deep link (SPA fallback). Hashed assets are cached for a year.
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
  const server = createServer((request, response) => {
    void (async () => {
      const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://app').pathname);
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
      response.writeHead(200, {
        'Content-Type': contentTypes[path.extname(file)] ?? 'application/octet-stream',
        'Cache-Control':
          isAsset && pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      });
      if (request.method === 'HEAD') return response.end();
      createReadStream(file).pipe(response);
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
