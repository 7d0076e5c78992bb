import { describe, expect, it } from 'vitest';
import { matchRoute, type AuthRoute } from './route';

const handle = async () => ({});
const routes: AuthRoute[] = [
  { method: 'GET', path: '/user', handle },
  { method: 'PUT', path: '/user', handle },
  { method: 'POST', path: /^\/factors\/([^/]+)\/verify$/, handle },
];

describe('matching an Auth endpoint', () => {
  it('finds an exact path only for its method', () => {
    expect(matchRoute(routes, 'PUT', '/user')?.route).toBe(routes[1]);
    expect(matchRoute(routes, 'DELETE', '/user')).toBeUndefined();
  });

  it('hands a pattern’s captured parts over decoded', () => {
    expect(matchRoute(routes, 'POST', '/factors/a%20b/verify')?.params).toEqual(['a b']);
  });

  it('finds nothing for a path no area serves', () => {
    expect(matchRoute(routes, 'GET', '/users')).toBeUndefined();
  });
});
