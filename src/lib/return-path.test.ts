import type { Location } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { loginRedirectState, returnPathAfterLogin } from './return-path';

describe('return to the page that asked for a log-in', () => {
  it('goes back to the page, its query and its fragment', () => {
    const location = { pathname: '/admin/users', search: '?page=2', hash: '#top' } as Location;
    expect(returnPathAfterLogin(loginRedirectState(location))).toBe('/admin/users?page=2#top');
  });

  it('goes to the dashboard when no page asked', () => {
    expect(returnPathAfterLogin(null)).toBe('/dashboard');
    expect(returnPathAfterLogin({})).toBe('/dashboard');
  });

  it('never leaves the site', () => {
    expect(returnPathAfterLogin({ from: '//evil.example/login' })).toBe('/dashboard');
    expect(returnPathAfterLogin({ from: 'https://evil.example' })).toBe('/dashboard');
  });
});
