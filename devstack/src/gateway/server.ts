import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { loadProject, type FunctionSchedule, type UpstreamStub } from '../project';
import { attachRealtime } from '../realtime';
import {
  createAdmission,
  createLoopLagMonitor,
  defaultAdmissionLimits,
  serviceOf,
  type Service,
} from './admission';
import { createAuthHandler, type AuthRateLimits } from './auth';
import { AuthError, sendAuthError } from './auth/errors';
import { createPool, retryAfterHeader, unavailableReason, type UnavailableReason } from './database';
import { createFunctionsRuntime } from './functions/runtime';
import { BodyTooLargeError, bearerToken, headerValue, readBody, sendJson } from './http';
import { createJwtVerifier, InvalidJwtError, type VerifiedClaims } from './jwt';
import { createMailbox, type Mailbox } from './mailbox';
import { loadProjectConfig, type ProjectConfig } from './project-config';
import { createRestHandler } from './rest';
import { RestError, restUnavailable } from './rest/errors';
import { startSchedules, type ScheduleFailure } from './scheduler';

/** Where the stack is installed (its Deno binary). */
const stackRoot = new URL('../../../', import.meta.url).pathname;
/** Paths of the gateway's own services, which no upstream stub may take. */
const ownPaths = new Set(['auth', 'rest', 'functions', 'realtime', 'mailbox', 'storage']);

export interface GatewayOptions {
  /** Superuser connection string of the database (`postgres`). */
  databaseUrl: string;
  jwtSecret: string;
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
  /** The project's upstream stubs by name (devstack.config.ts), e.g. to take one down in a test. */
  upstreams: Record<string, UpstreamStub>;
  stop(): Promise<void>;
}

const maxRestBodyBytes = 1024 * 1024;
const corsHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  'Access-Control-Allow-Headers':
    'authorization, apikey, content-type, x-client-info, x-supabase-api-version, prefer, range, range-unit, accept-profile, content-profile, accept',
  'Access-Control-Expose-Headers': 'Content-Range, X-Supabase-Api-Version, Location',
  'Access-Control-Max-Age': '86400',
};

/**
 * Whether a request comes from this machine and, when a browser says which page sent it, from a page of
 * the gateway's own origin (`Origin`, or `Sec-Fetch-Site` for requests that carry no `Origin`).
 */
function isSameOriginLoopback(request: IncomingMessage, ownUrl: string) {
  const address = request.socket.remoteAddress ?? '';
  if (!['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(address)) return false;
  const origin = headerValue(request, 'origin');
  if (origin !== undefined) {
    const own = new URL(ownUrl);
    const sender = URL.canParse(origin) ? new URL(origin) : undefined;
    const loopbackNames = ['127.0.0.1', 'localhost', '[::1]'];
    return (
      sender?.port === own.port && loopbackNames.includes(sender.hostname) && sender.protocol === own.protocol
    );
  }
  const site = headerValue(request, 'sec-fetch-site');
  return site === undefined || site === 'same-origin' || site === 'none';
}

/** A provider-shaped mail (`{from, to, subject, text, html}`) into the mailbox: the answer's status and body. */
/**
 * Resend's idempotency keys: a repeat of `POST /emails` with the `Idempotency-Key` of a mail accepted in the
 * last 24 hours answers that mail's id and sends nothing (resend.com/docs/dashboard/emails/idempotency-keys).
 */
const idempotencyWindowMs = 24 * 60 * 60 * 1000;

function acceptProviderMail(
  body: Buffer,
  mailbox: Mailbox,
  idempotencyKey: string | undefined,
  acceptedByKey: Map<string, { id: string; at: number }>,
): [number, unknown] {
  const earlier = idempotencyKey === undefined ? undefined : acceptedByKey.get(idempotencyKey);
  if (earlier && Date.now() - earlier.at < idempotencyWindowMs) return [200, { id: earlier.id }];
  let mail: { to?: unknown; subject?: unknown; text?: unknown; html?: unknown };
  try {
    mail = JSON.parse(body.toString('utf8')) as typeof mail;
  } catch {
    return [422, { message: 'The body must be JSON' }];
  }
  const recipients = (Array.isArray(mail.to) ? mail.to : [mail.to]).filter((to) => typeof to === 'string');
  if (recipients.length === 0 || typeof mail.subject !== 'string' || typeof mail.text !== 'string')
    return [422, { message: '`to`, `subject` and `text` are required' }];
  const ids = recipients.map((to) =>
    mailbox.send({
      to: to.toLowerCase(),
      subject: mail.subject as string,
      text: mail.text as string,
      html: typeof mail.html === 'string' ? mail.html : '',
    }),
  );
  if (idempotencyKey !== undefined && ids[0] !== undefined) {
    // Keys older than the window are forgotten, so a long `npm start` does not keep every key.
    for (const [key, accepted] of acceptedByKey) {
      if (Date.now() - accepted.at >= idempotencyWindowMs) acceptedByKey.delete(key);
    }
    acceptedByKey.set(idempotencyKey, { id: ids[0], at: Date.now() });
  }
  return [200, { id: ids[0] }];
}

/** The same database as another role (authenticator and the auth admin log in with password `postgres`). */
function databaseUrlAs(databaseUrl: string, user: string) {
  const url = new URL(databaseUrl);
  url.username = user;
  url.password = 'postgres';
  return url.href;
}

class KeyError extends Error {
  constructor(
    readonly body: Record<string, unknown>,
    readonly status = 401,
  ) {
    super(String(body.message));
  }
}

/**
 * The Supabase API on one port: Auth, REST, Functions and a mailbox over the real Postgres, with
 * Supabase's key checks in front (an `apikey` that is one of the project's keys).
 */
export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const { root, config } = await loadProject(options.projectRoot);
  const project = {
    ...(await loadProjectConfig(path.join(root, 'supabase/config.toml'))),
    ...options.project,
  };
  const upstreamDefinitions = Object.entries(config.upstreams ?? {});
  const taken = upstreamDefinitions.map(([name]) => name).filter((name) => ownPaths.has(name));
  if (taken.length > 0)
    throw new Error(`devstack.config.ts: upstream names taken by the stack: ${taken.join(', ')}`);
  const upstreams = new Map(upstreamDefinitions.map(([name, upstream]) => [name, upstream.create()]));
  const jwt = createJwtVerifier(options.jwtSecret);
  const mailbox = createMailbox({ print: options.printMail ?? false });
  const providerMailByKey = new Map<string, { id: string; at: number }>();
  // Pipelined: a REST request's begin, settings, statement and commit go out in one write.
  const restPool = createPool({
    connectionString: databaseUrlAs(options.databaseUrl, 'authenticator'),
    max: 20,
    pipeline: true,
  });
  const adminPool = createPool({ connectionString: options.databaseUrl, max: 10 });
  const loopLag = createLoopLagMonitor();
  const admission = createAdmission(
    { ...defaultAdmissionLimits, ...options.admissionLimits },
    loopLag.sustainedLagMs,
  );

  // A request (headers and body) must arrive within 30 s: a slow or never-ending body is cut off.
  // Idle keep-alive connections are kept 75 s, nginx's `keepalive_timeout` that Kong leaves as it is
  // (Node's 5 s closes connections that clients reuse at that moment: the request is reset). The listen
  // queue is Kong's `proxy_listen … backlog=16384` (the kernel caps it at `net.core.somaxconn`): Node's
  // 511 overflowed under a burst of new connections, and the kernel resets what it cannot queue.
  // Kong/kong kong/templates/kong_defaults.lua
  const server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000, keepAliveTimeout: 75_000 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1', backlog: 16_384 }, () =>
      resolve(),
    );
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  const auth = createAuthHandler({
    pool: adminPool,
    jwt,
    mailbox,
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
      SUPABASE_ANON_KEY: options.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: options.serviceRoleKey,
      SUPABASE_DB_URL: options.databaseUrl,
      ...Object.fromEntries(
        upstreamDefinitions.map(([name, upstream]) => [
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

  /** Supabase's API gateway: the `apikey` must be one of this project's keys. */
  async function checkApiKey(request: IncomingMessage, requestUrl: URL): Promise<VerifiedClaims> {
    const apiKey = headerValue(request, 'apikey') ?? requestUrl.searchParams.get('apikey');
    if (!apiKey)
      throw new KeyError({
        message: 'No API key found in request',
        hint: 'No `apikey` request header or url param was found.',
      });
    try {
      const claims = await jwt.verify(apiKey);
      if (claims.role === 'anon' || claims.role === 'service_role') return claims;
    } catch (error) {
      if (!(error instanceof InvalidJwtError)) throw error;
    }
    throw new KeyError({
      message: 'Invalid API key',
      hint: 'Double check your Supabase `anon` or `service_role` API key.',
    });
  }

  /** PostgREST's caller: the bearer JWT when present (it must verify), else the API key's role. */
  async function restClaims(request: IncomingMessage, apiKeyClaims: VerifiedClaims): Promise<VerifiedClaims> {
    const token = bearerToken(request);
    if (!token) return apiKeyClaims;
    try {
      return await jwt.verify(token);
    } catch (error) {
      if (!(error instanceof InvalidJwtError)) throw error;
      const expired = /exp/i.test(error.message);
      throw new KeyError({
        code: expired ? 'PGRST303' : 'PGRST301',
        message: expired ? 'JWT expired' : `JWT could not be verified: ${error.message}`,
        details: null,
        hint: null,
      });
    }
  }

  /** Supabase's functions gateway: with `verify_jwt` the bearer token must be a valid JWT of this project. */
  async function checkFunctionJwt(request: IncomingMessage, name: string) {
    if (project.functionsWithoutJwt.has(name)) return;
    const token = bearerToken(request);
    if (!token)
      throw new KeyError({ code: 'UNAUTHORIZED_NO_AUTH_HEADER', message: 'Missing authorization header' });
    try {
      await jwt.verify(token);
    } catch (error) {
      if (!(error instanceof InvalidJwtError)) throw error;
      throw new KeyError({ code: 'UNAUTHORIZED_INVALID_JWT', message: `Invalid JWT: ${error.message}` });
    }
  }

  async function route(request: IncomingMessage, response: ServerResponse) {
    const requestUrl = new URL(request.url ?? '/', url);
    const pathname = requestUrl.pathname;
    // The mailbox holds sign-in and recovery links: only pages of this origin on this machine may read it.
    if (pathname === '/mailbox') {
      if (!isSameOriginLoopback(request, url))
        return sendJson(response, 403, {
          message: 'The mailbox answers only same-origin requests on loopback',
        });
      return sendJson(response, 200, mailbox.list(requestUrl.searchParams.get('to') ?? undefined));
    }
    // What the functions send through their e-mail provider (Resend's `POST /emails`) lands in the mailbox.
    if (pathname === '/mail-provider/emails') {
      if (!isSameOriginLoopback(request, url))
        return sendJson(response, 403, { message: 'The mail provider answers only requests on loopback' });
      if (request.method !== 'POST') return sendJson(response, 405, { message: 'Use POST' });
      return sendJson(
        response,
        ...acceptProviderMail(
          await readBody(request, 1_000_000),
          mailbox,
          headerValue(request, 'idempotency-key'),
          providerMailByKey,
        ),
      );
    }
    if (request.method === 'OPTIONS') {
      // Whatever headers a Supabase client sends (x-client-info, x-region, …) are allowed, as on Supabase.
      const requested = headerValue(request, 'access-control-request-headers');
      response.writeHead(204, {
        ...corsHeaders,
        ...(requested ? { 'Access-Control-Allow-Headers': requested } : {}),
      });
      return response.end();
    }
    for (const [name, value] of Object.entries(corsHeaders)) response.setHeader(name, value);

    const upstream = upstreams.get(pathname.split('/')[1] ?? '');
    if (upstream) return upstream.handle(request, response);

    const functionCall = pathname.match(/^\/functions\/v1\/([^/]+)(\/.*)?$/);
    if (functionCall) {
      const name = functionCall[1] ?? '';
      if (headerValue(request, 'apikey') !== undefined) await checkApiKey(request, requestUrl);
      await checkFunctionJwt(request, name);
      return functions.handle(request, response, name, `${functionCall[2] ?? ''}${requestUrl.search}`);
    }
    if (pathname.startsWith('/auth/v1/')) {
      // Pages a browser opens without any key (Supabase's gateway leaves them open): the e-mailed link and
      // the OAuth redirects; and the health check.
      const opensInBrowser =
        /^\/auth\/v1\/(verify|authorize|callback|health)$/.test(pathname) && request.method === 'GET';
      if (!opensInBrowser) await checkApiKey(request, requestUrl);
      return auth(request, response, pathname.slice('/auth/v1'.length), requestUrl);
    }
    if (pathname.startsWith('/rest/v1/')) {
      const claims = await restClaims(request, await checkApiKey(request, requestUrl));
      return rest(request, response, claims, pathname.slice('/rest/v1'.length), requestUrl);
    }
    sendJson(response, 404, { message: 'no Route matched with those values' });
  }

  /** A 503 with `Retry-After` in the shape of the service that could not answer. */
  function sendUnavailable(
    request: IncomingMessage,
    response: ServerResponse,
    service: Service | undefined,
    reason: UnavailableReason,
  ) {
    // An unread body is not drained: the connection closes after the answer. A request without a body
    // keeps its connection: under overload, a closed connection per refusal makes every client connect
    // again, and the flood of new connections overflows the listen queue (SYNs dropped, retried after
    // seconds, connections reset), which is where the longest waits and the unanswered requests were.
    const hasBody =
      request.headers['transfer-encoding'] !== undefined ||
      Number(request.headers['content-length'] ?? 0) > 0;
    if (hasBody) response.setHeader('Connection', 'close');
    if (service === 'auth') {
      response.setHeader('Retry-After', retryAfterHeader['Retry-After']);
      return sendAuthError(
        request,
        response,
        new AuthError(
          503,
          'request_timeout',
          'The service is busy or its database unavailable; retry shortly',
        ),
      );
    }
    if (service === 'functions') {
      return sendJson(
        response,
        503,
        { code: 'SERVICE_UNAVAILABLE', message: 'Too many function calls at once; retry shortly' },
        retryAfterHeader,
      );
    }
    sendJson(response, 503, restUnavailable(reason).body(), retryAfterHeader);
  }

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const started = performance.now();
    const service = serviceOf(request.url?.split('?')[0] ?? '/');
    const release = service ? admission.admit(service) : undefined;
    if (service && !release) {
      for (const [name, value] of Object.entries(corsHeaders)) response.setHeader(name, value);
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
    route(request, response).catch((error: unknown) => {
      if (response.headersSent) return response.destroy();
      if (error instanceof KeyError) return sendJson(response, error.status, error.body);
      const reason = unavailableReason(error);
      if (reason) return sendUnavailable(request, response, service, reason);
      if (error instanceof BodyTooLargeError) {
        return sendJson(response, 413, {
          code: 'PGRST413',
          message: 'Payload Too Large',
          details: null,
          hint: null,
        });
      }
      // The reason goes to the gateway's log, never to the caller: it may name internals.
      console.error('[gateway]', error);
      if (service === 'auth')
        return sendAuthError(
          request,
          response,
          new AuthError(500, 'unexpected_failure', 'Unexpected failure'),
        );
      sendJson(response, 500, new RestError(500, 'GATEWAY_ERROR', 'Internal server error').body());
    });
  });

  const realtime = await attachRealtime(server, {
    databaseUrl: options.databaseUrl,
    jwtSecret: options.jwtSecret,
    maxBufferedBytes: options.realtimeMaxBufferedBytes,
    maxUnsentBytes: options.realtimeMaxUnsentBytes,
  });

  const schedules = startSchedules({
    schedules: options.schedules ?? {},
    apiUrl: url,
    serviceRoleKey: options.serviceRoleKey,
    onFailure: options.onScheduleFailure,
  });

  return {
    url,
    port,
    server,
    mailbox,
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
