import type { IncomingMessage, ServerResponse } from 'node:http';

/** One request to an Auth endpoint, `params` holding the path's captured parts (decoded). */
export interface AuthCall {
  request: IncomingMessage;
  response: ServerResponse;
  url: URL;
  params: string[];
}

/**
 * An Auth endpoint: `handle` returns the JSON body of a 200 answer, or `null` when it answered itself
 * (a redirect, a 204).
 */
export interface AuthRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The path under `/auth/v1`, exact or a pattern whose groups become `params`. */
  path: string | RegExp;
  handle: (call: AuthCall) => Promise<object | null>;
}

/** The route for `method` and `path`, with the path's captured parts. */
export function matchRoute(
  routes: readonly AuthRoute[],
  method: string,
  path: string,
): { route: AuthRoute; params: string[] } | undefined {
  for (const route of routes) {
    if (route.method !== method) continue;
    if (typeof route.path === 'string') {
      if (route.path === path) return { route, params: [] };
      continue;
    }
    const match = path.match(route.path);
    if (match) return { route, params: match.slice(1).map((part) => decodeURIComponent(part ?? '')) };
  }
  return undefined;
}
