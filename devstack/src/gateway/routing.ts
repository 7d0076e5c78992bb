import type { IncomingMessage, ServerResponse } from 'node:http';
import type { UpstreamStub } from '../project';
import type { KeyChecks } from './api-keys';
import type { createAuthHandler } from './auth';
import type { createFunctionsRuntime } from './functions/runtime';
import { headerValue, sendJson } from './http';
import type { createMailStandIn } from './mail-stand-in';
import type { createRestHandler } from './rest';

/** Paths of the gateway's own services, which no upstream stub may take. */
export const ownPaths = new Set(['auth', 'rest', 'functions', 'realtime', 'mailbox', 'storage']);

export const corsHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  'Access-Control-Allow-Headers':
    'authorization, apikey, content-type, x-client-info, x-supabase-api-version, prefer, range, range-unit, accept-profile, content-profile, accept',
  'Access-Control-Expose-Headers': 'Content-Range, X-Supabase-Api-Version, Location',
  'Access-Control-Max-Age': '86400',
};

export function setCorsHeaders(response: ServerResponse) {
  for (const [name, value] of Object.entries(corsHeaders)) response.setHeader(name, value);
}

export interface RoutedParts {
  ownUrl: string;
  keys: KeyChecks;
  mail: ReturnType<typeof createMailStandIn>;
  upstreams: Map<string, UpstreamStub>;
  functions: ReturnType<typeof createFunctionsRuntime>;
  auth: ReturnType<typeof createAuthHandler>;
  rest: ReturnType<typeof createRestHandler>;
}

/**
 * Supabase's API gateway's routes: the mail stand-in (no CORS, developer only), CORS preflights, the
 * project's upstream stubs, then Functions, Auth and REST behind their key checks.
 */
export function createRouter({ ownUrl, keys, mail, upstreams, functions, auth, rest }: RoutedParts) {
  return async function route(request: IncomingMessage, response: ServerResponse) {
    const requestUrl = new URL(request.url ?? '/', ownUrl);
    const pathname = requestUrl.pathname;
    if (await mail.handle(request, response, requestUrl)) return;
    if (request.method === 'OPTIONS') {
      // Whatever headers a Supabase client sends (x-client-info, x-region, …) are allowed, as on Supabase.
      const requested = headerValue(request, 'access-control-request-headers');
      response.writeHead(204, {
        ...corsHeaders,
        ...(requested ? { 'Access-Control-Allow-Headers': requested } : {}),
      });
      return response.end();
    }
    setCorsHeaders(response);

    const upstream = upstreams.get(pathname.split('/')[1] ?? '');
    if (upstream) return upstream.handle(request, response);

    const functionCall = pathname.match(/^\/functions\/v1\/([^/]+)(\/.*)?$/);
    if (functionCall) {
      const name = functionCall[1] ?? '';
      if (headerValue(request, 'apikey') !== undefined) await keys.checkApiKey(request, requestUrl);
      await keys.checkFunctionJwt(request, name);
      return functions.handle(request, response, name, `${functionCall[2] ?? ''}${requestUrl.search}`);
    }
    if (pathname.startsWith('/auth/v1/')) {
      // Pages a browser opens without any key (Supabase's gateway leaves them open): the e-mailed link and
      // the OAuth redirects; the health check and the public keys, which anyone may read.
      const opensInBrowser =
        /^\/auth\/v1\/(verify|authorize|callback|health|\.well-known\/jwks\.json)$/.test(pathname) &&
        request.method === 'GET';
      if (!opensInBrowser) await keys.checkApiKey(request, requestUrl);
      return auth(request, response, pathname.slice('/auth/v1'.length), requestUrl);
    }
    if (pathname.startsWith('/rest/v1/')) {
      const claims = await keys.restClaims(request, await keys.checkApiKey(request, requestUrl));
      return rest(request, response, claims, pathname.slice('/rest/v1'.length), requestUrl);
    }
    sendJson(response, 404, { message: 'no Route matched with those values' });
  };
}

/** The project's upstream stubs (devstack.config.ts) by the first path segment they are served under. */
export function createUpstreams(
  definitions: Record<string, { create(): UpstreamStub }>,
): Map<string, UpstreamStub> {
  const taken = Object.keys(definitions).filter((name) => ownPaths.has(name));
  if (taken.length > 0)
    throw new Error(`devstack.config.ts: upstream names taken by the stack: ${taken.join(', ')}`);
  return new Map(Object.entries(definitions).map(([name, upstream]) => [name, upstream.create()]));
}
