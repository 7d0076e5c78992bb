import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import path from 'node:path';
import { createPool } from '../db/pool';
import { createJwtKeys, loadSigningKeys, projectApiKeys } from '../jwt-keys';
import { loadProject, type FunctionSchedule, type UpstreamStub } from '../project';
import { attachRealtime } from '../realtime';
import {
  createAdmission,
  createLoopLagMonitor,
  defaultAdmissionLimits,
  serviceOf,
  type Service,
} from './admission';
import { createKeyChecks } from './api-keys';
import { createAuthHandler, type AuthRateLimits } from './auth';
import { poolAcquireTimeoutMs } from './database';
import { createFunctionsRuntime } from './functions/runtime';
import { createJwtVerifier } from './jwt';
import { createMailStandIn } from './mail-stand-in';
import { createMailbox, type Mailbox } from './mailbox';
import { loadMailTemplates } from './auth/mail-templates';
import { loadProjectConfig, type ProjectConfig } from './project-config';
import { createRestHandler } from './rest';
import { createRouter, createUpstreams, setCorsHeaders } from './routing';
import { startSchedules, type ScheduleFailure } from './scheduler';
import { listenAsKong } from './server-settings';
import { answerFailure, sendUnavailable } from './unavailable';

/** Where the stack is installed (its Deno binary). */
const stackRoot = new URL('../../../', import.meta.url).pathname;

export interface GatewayOptions {
  /** Superuser connection string of the database (`postgres`). */
  databaseUrl: string;
  jwtSecret: string;
  /** The HS256 keys; with `[auth] signing_keys_path` the gateway signs its own with the signing key. */
  anonKey: string;
  serviceRoleKey: string;
  /** 0 or undefined: a free port. */
  port?: number;
  host?: string;
  /** The project's folder (its `supabase/` and `devstack.config.ts`); defaults to the working directory. */
  projectRoot?: string;
  /** Folder with `<name>/index.ts` per Edge Function; defaults to the project's `supabase/functions`. */
  functionsDir?: string;
  functionTimeoutMs?: number;
  /** How long a function call's body may take to arrive (default 10 s). */
  functionBodyTimeoutMs?: number;
  /** Unsent bytes a Realtime socket may hold before it is cut off as too slow (default 8 MB). */
  realtimeMaxBufferedBytes?: number;
  /** Unsent bytes all Realtime sockets together may hold before the slowest are cut off (default 64 MB). */
  realtimeMaxUnsentBytes?: number;
  rateLimits?: Partial<AuthRateLimits>;
  refreshTokenReuseIntervalSeconds?: number;
  /** Settings that differ from `supabase/config.toml` for this gateway (e.g. confirmations on). */
  project?: Partial<ProjectConfig>;
  /** Print each e-mail to the console (npm start), or keep quiet (tests). */
  printMail?: boolean;
  /** Log one line per request. */
  logRequests?: boolean;
  /** Requests each service holds at once before answering 503 (tests lower them). */
  admissionLimits?: Partial<Record<Service, number>>;
  /** Function calls on an interval, as Supabase Cron makes them (none unless given; `npm start` gives the project's). */
  schedules?: Record<string, FunctionSchedule>;
  /** Where a failed scheduled call is reported (default: the console). */
  onScheduleFailure?: (failure: ScheduleFailure) => void;
}

export interface RunningGateway {
  url: string;
  port: number;
  server: Server;
  mailbox: Mailbox;
  /** The API keys in effect (signed with the project's signing key when it has one). */
  anonKey: string;
  serviceRoleKey: string;
  /** The project's upstream stubs by name (devstack.config.ts), e.g. to take one down in a test. */
  upstreams: Record<string, UpstreamStub>;
  stop(): Promise<void>;
}

const maxRestBodyBytes = 1024 * 1024;

/** The same database as another role (authenticator and the auth admin log in with password `postgres`). */
function databaseUrlAs(databaseUrl: string, user: string) {
  const url = new URL(databaseUrl);
  url.username = user;
  url.password = 'postgres';
  return url.href;
}

/**
 * The Supabase API on one port: Auth, REST, Functions, Realtime and the mail stand-in over the real
 * Postgres, behind Supabase's key checks, admission and 503 shaping, with the project's schedules.
 */
export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const { root, config } = await loadProject(options.projectRoot);
  const project = {
    ...(await loadProjectConfig(path.join(root, 'supabase/config.toml'))),
    ...options.project,
  };
  const upstreamDefinitions = config.upstreams ?? {};
  const upstreams = createUpstreams(upstreamDefinitions);
  const jwtKeys = await createJwtKeys({
    secret: options.jwtSecret,
    signingKeys: project.signingKeysPath
      ? await loadSigningKeys(path.join(root, 'supabase'), project.signingKeysPath)
      : [],
  });
  const { anonKey, serviceRoleKey } = await projectApiKeys(jwtKeys, options);
  const jwt = createJwtVerifier(jwtKeys);
  const mailbox = createMailbox({ print: options.printMail ?? false });
  const mailTemplates = await loadMailTemplates(project.mailTemplates, root, project.mailNotifications);
  // Pipelined: a REST request's begin, settings, statement and commit go out in one write.
  const restPool = createPool({
    connectionString: databaseUrlAs(options.databaseUrl, 'authenticator'),
    connectionTimeoutMillis: poolAcquireTimeoutMs,
    max: 20,
    pipeline: true,
  });
  const adminPool = createPool({
    connectionString: options.databaseUrl,
    connectionTimeoutMillis: poolAcquireTimeoutMs,
    max: 10,
  });
  const loopLag = createLoopLagMonitor();
  const admission = createAdmission(
    { ...defaultAdmissionLimits, ...options.admissionLimits },
    loopLag.sustainedLagMs,
  );
  const { server, port, url } = await listenAsKong(options);

  const auth = createAuthHandler({
    pool: adminPool,
    jwt,
    mailbox,
    mailTemplates,
    project,
    apiUrl: url,
    refreshTokenReuseIntervalSeconds:
      options.refreshTokenReuseIntervalSeconds ?? project.refreshTokenReuseIntervalSeconds,
    rateLimits: options.rateLimits ?? {},
  });
  const rest = createRestHandler({
    pool: restPool,
    catalogPool: adminPool,
    maxBodyBytes: maxRestBodyBytes,
    maxRows: project.maxRows,
    schemas: project.apiSchemas,
    extraSearchPath: project.apiExtraSearchPath,
  });
  const functions = createFunctionsRuntime({
    functionsDir: options.functionsDir ?? path.join(root, 'supabase/functions'),
    envFile: path.join(root, 'supabase/functions/.env'),
    denoPath: path.join(stackRoot, 'node_modules/.bin/deno'),
    timeoutMs: options.functionTimeoutMs ?? 30_000,
    bodyTimeoutMs: options.functionBodyTimeoutMs ?? 10_000,
    bootTimeoutMs: 60_000,
    environment: {
      SUPABASE_URL: url,
      SUPABASE_ANON_KEY: anonKey,
      SUPABASE_SERVICE_ROLE_KEY: serviceRoleKey,
      SUPABASE_DB_URL: options.databaseUrl,
      ...Object.fromEntries(
        Object.entries(upstreamDefinitions).map(([name, upstream]) => [
          upstream.env,
          `${url}/${name}${upstream.basePath ?? ''}`,
        ]),
      ),
      // The e-mail provider's API (Resend's shape) is the mailbox here; the link base is Auth's site URL.
      EMAIL_API_URL: `${url}/mail-provider`,
      EMAIL_API_KEY: 'local-mailbox',
      SITE_URL: project.siteUrl,
    },
  });
  const route = createRouter({
    ownUrl: url,
    keys: createKeyChecks({ jwt, functionsWithoutJwt: project.functionsWithoutJwt }),
    mail: createMailStandIn({ mailbox, ownUrl: url }),
    upstreams,
    functions,
    auth,
    rest,
  });

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const started = performance.now();
    // A CORS preflight is answered by the gateway itself, as Supabase's gateway does, and holds nothing: shed,
    // it would fail the browser's request as a network error instead of a 503 the page can read.
    const service = request.method === 'OPTIONS' ? undefined : serviceOf(request.url?.split('?')[0] ?? '/');
    const release = service ? admission.admit(service) : undefined;
    if (service && !release) {
      setCorsHeaders(response);
      return sendUnavailable(request, response, service, 'pool-exhausted');
    }
    if (release) response.once('close', release);
    if (options.logRequests) {
      response.on('finish', () => {
        console.log(
          `${request.method} ${request.url} ${response.statusCode} ${(performance.now() - started).toFixed(1)} ms`,
        );
      });
    }
    route(request, response).catch((error: unknown) => answerFailure(request, response, service, error));
  });

  const realtime = await attachRealtime(server, {
    databaseUrl: options.databaseUrl,
    jwtKeys,
    maxBufferedBytes: options.realtimeMaxBufferedBytes,
    maxUnsentBytes: options.realtimeMaxUnsentBytes,
  });

  const schedules = startSchedules({
    schedules: options.schedules ?? {},
    apiUrl: url,
    serviceRoleKey,
    onFailure: options.onScheduleFailure,
  });

  return {
    url,
    port,
    server,
    mailbox,
    anonKey,
    serviceRoleKey,
    upstreams: Object.fromEntries(upstreams),
    async stop() {
      // Every part stops even when one fails (no orphan Deno workers); the first failure is reported.
      loopLag.stop();
      const results: PromiseSettledResult<void>[] = await Promise.allSettled([
        schedules.stop(),
        realtime.close(),
      ]);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      results.push(...(await Promise.allSettled([functions.stop(), restPool.end(), adminPool.end()])));
      const failure = results.find((result) => result.status === 'rejected');
      if (failure) throw failure.reason;
    },
  };
}
