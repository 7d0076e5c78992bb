import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort } from '../../db/postgres';
import { sendJson } from '../http';

export interface FunctionsRuntimeOptions {
  /** Folder with `<name>/index.ts` per function (and an optional `deno.json`). */
  functionsDir: string;
  /** `supabase/functions/.env`: secrets added to every function's environment. */
  envFile?: string;
  /** SUPABASE_URL, keys, SUPABASE_DB_URL and other defaults. */
  environment: Record<string, string>;
  denoPath: string;
  /** A request with no answer after this long ends the worker: 504, and the next request starts a new one. */
  timeoutMs: number;
  /**
   * A request whose body has not fully arrived after this long is answered 408 and cut off, and the
   * worker, which serves every other call of the function meanwhile, keeps running.
   */
  bodyTimeoutMs: number;
  /** Allowance for the first start (Deno may fetch npm packages into its cache). */
  bootTimeoutMs: number;
}

interface Worker {
  process: ChildProcess;
  port: number;
  ready: Promise<void>;
  /** Last lines the function wrote to stderr, for error reasons. */
  stderr: string[];
  exited: boolean;
}

class WorkerFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * What a worker inherits from the machine: its paths, and its network settings — proxies and the TLS trust that a
 * proxy with its own root certificate needs.
 */
const inheritedVariables = [
  'PATH',
  'HOME',
  'DENO_DIR',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'DENO_CERT',
  'DENO_TLS_CA_STORE',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'NODE_EXTRA_CA_CERTS',
];

const workerBootstrap = new URL('./worker-bootstrap.ts', import.meta.url).pathname;

function parseEnvFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = line.match(/^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/);
    const [, name, value] = match ?? [];
    if (name && value !== undefined) values[name] = value.replace(/^(['"])(.*)\1$/, '$2');
  }
  return values;
}

/** One long-lived Deno process per function, started on first call and restarted after a crash or hang. */
export function createFunctionsRuntime(options: FunctionsRuntimeOptions) {
  const workers = new Map<string, Worker>();
  /** Workers being started: requests that arrive meanwhile share the start instead of racing it. */
  const starting = new Map<string, Promise<Worker>>();
  let stopped = false;

  async function environmentFor(): Promise<Record<string, string>> {
    const secrets =
      options.envFile && existsSync(options.envFile)
        ? parseEnvFile(await readFile(options.envFile, 'utf8'))
        : {};
    const inherited = Object.fromEntries(
      inheritedVariables.flatMap((name) => {
        const value = process.env[name];
        return value === undefined ? [] : [[name, value] as const];
      }),
    );
    // Deno trusts only its own CA list unless told: a machine's extra root certificate reaches it as DENO_CERT.
    const extraCertificates = process.env.SSL_CERT_FILE ?? process.env.NODE_EXTRA_CA_CERTS;
    if (!inherited.DENO_CERT && extraCertificates) inherited.DENO_CERT = extraCertificates;
    return { ...inherited, ...options.environment, ...secrets };
  }

  async function startWorker(name: string, entry: string): Promise<Worker> {
    const port = await freePort();
    const denoConfig = path.join(options.functionsDir, 'deno.json');
    // --no-lock: running functions must not write a deno.lock into the project.
    // --node-modules-dir=manual: the functions' npm: imports resolve from what `npm ci` installed, so a worker
    // starts with an empty Deno cache and no network; deno.json keeps its registry specifiers for deployment.
    const args = ['run', '--allow-all', '--no-prompt', '--quiet', '--no-lock', '--node-modules-dir=manual'];
    if (existsSync(denoConfig)) args.push('--config', denoConfig);
    args.push(workerBootstrap);
    const child = spawn(options.denoPath, args, {
      cwd: path.dirname(entry),
      env: {
        ...(await environmentFor()),
        DEVSTACK_FUNCTION_PORT: String(port),
        DEVSTACK_FUNCTION_ENTRY: pathToFileURL(entry).href,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const worker: Worker = { process: child, port, stderr: [], exited: false, ready: Promise.resolve() };
    worker.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        stopWorker(name, worker);
        reject(
          new WorkerFailure(
            503,
            'BOOT_ERROR',
            `Function '${name}' did not start within ${options.bootTimeoutMs} ms`,
          ),
        );
      }, options.bootTimeoutMs);
      child.stdout?.setEncoding('utf8').on('data', (text: string) => {
        for (const line of text.split('\n')) {
          if (line.trim() === 'devstack-worker-ready') {
            clearTimeout(timer);
            resolve();
          } else if (line.trim()) console.log(`[functions/${name}] ${line}`);
        }
      });
      child.stderr?.setEncoding('utf8').on('data', (text: string) => {
        worker.stderr.push(...text.split('\n').filter(Boolean));
        worker.stderr.splice(0, Math.max(0, worker.stderr.length - 20));
        if (process.env.DEBUG_FUNCTIONS) process.stderr.write(`[functions/${name}] ${text}`);
      });
      child.on('exit', (code, signal) => {
        worker.exited = true;
        clearTimeout(timer);
        if (workers.get(name) === worker) workers.delete(name);
        reject(
          new WorkerFailure(
            503,
            'BOOT_ERROR',
            `Function '${name}' failed to start (exit ${code ?? signal}): ${worker.stderr.slice(-5).join(' | ')}`,
          ),
        );
      });
    });
    // A rejected start is reported to the request that awaited it; nothing else listens.
    worker.ready.catch(() => undefined);
    return worker;
  }

  function stopWorker(name: string, worker: Worker) {
    if (workers.get(name) === worker) workers.delete(name);
    if (!worker.exited) worker.process.kill('SIGKILL');
  }

  async function workerFor(name: string): Promise<Worker> {
    let worker = workers.get(name);
    if (!worker) {
      const entry = path.join(options.functionsDir, name, 'index.ts');
      if (!/^[A-Za-z0-9_-]+$/.test(name) || !existsSync(entry)) {
        throw new WorkerFailure(404, 'NOT_FOUND', 'Requested function was not found');
      }
      if (stopped) throw new WorkerFailure(503, 'STOPPED', 'Functions are shutting down');
      let start = starting.get(name);
      if (!start) {
        start = startWorker(name, entry)
          .then((started) => {
            workers.set(name, started);
            return started;
          })
          .finally(() => starting.delete(name));
        starting.set(name, start);
      }
      worker = await start;
    }
    await worker.ready;
    return worker;
  }

  /** Forwards the request to the function's worker as `/<name><rest>`, as Supabase's edge runtime sees it. */
  async function handle(request: IncomingMessage, response: ServerResponse, name: string, rest: string) {
    let worker: Worker;
    try {
      worker = await workerFor(name);
    } catch (error) {
      if (!(error instanceof WorkerFailure)) throw error;
      request.resume();
      return sendJson(response, error.status, { code: error.code, message: error.message });
    }
    await new Promise<void>((resolve) => {
      let settled = false;
      let bodyArrived = false;
      request.once('end', () => (bodyArrived = true));
      const fail = (status: number, code: string, message: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearTimeout(bodyTimer);
        if (!response.headersSent) sendJson(response, status, { code, message });
        else response.destroy();
        resolve();
      };
      const timer = setTimeout(() => {
        stopWorker(name, worker);
        fail(
          504,
          'WORKER_TIMEOUT',
          `Function '${name}' did not answer within ${options.timeoutMs} ms; it was restarted`,
        );
      }, options.timeoutMs);
      const bodyTimer = setTimeout(() => {
        if (bodyArrived) return;
        fail(
          408,
          'REQUEST_BODY_TIMEOUT',
          `The request body did not arrive within ${options.bodyTimeoutMs} ms`,
        );
        upstream.destroy();
        request.destroy();
      }, options.bodyTimeoutMs);
      // The caller's address is the connection's, whatever `X-Forwarded-For` the caller wrote: Supabase's
      // API gateway (Kong, no `trusted_ips`) overrides the X-Forwarded-* headers of untrusted clients.
      const headers = {
        ...request.headers,
        host: `127.0.0.1:${worker.port}`,
        'x-forwarded-for': request.socket.remoteAddress ?? '',
      };
      const upstream = httpRequest(
        { host: '127.0.0.1', port: worker.port, method: request.method, path: `/${name}${rest}`, headers },
        (answer) => {
          if (settled) return answer.resume();
          settled = true;
          clearTimeout(timer);
          clearTimeout(bodyTimer);
          response.writeHead(answer.statusCode ?? 500, answer.headers);
          answer.pipe(response);
          answer.on('end', resolve);
          answer.on('error', () => {
            response.destroy();
            resolve();
          });
        },
      );
      upstream.on('error', () => {
        // Already answered (a body cut off): the worker is fine.
        if (settled) return;
        // The worker died under this request (a crash, or a hang that was ended).
        setTimeout(() => {
          stopWorker(name, worker);
          fail(
            500,
            'WORKER_CRASHED',
            `Function '${name}' crashed: ${worker.stderr.slice(-5).join(' | ') || 'no output'}`,
          );
        }, 50);
      });
      request.pipe(upstream);
    });
  }

  async function stop() {
    stopped = true;
    await Promise.allSettled(starting.values());
    const running = [...workers.entries()];
    workers.clear();
    await Promise.all(
      running.map(
        ([, worker]) =>
          new Promise<void>((resolve) => {
            if (worker.exited) return resolve();
            worker.process.once('exit', () => resolve());
            worker.process.kill('SIGTERM');
            setTimeout(() => worker.process.kill('SIGKILL'), 2000).unref();
          }),
      ),
    );
  }

  return { handle, stop };
}

export type FunctionsRuntime = ReturnType<typeof createFunctionsRuntime>;
