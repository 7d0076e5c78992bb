import { describe, expect, it } from 'vitest';
import { allowedRedirect } from './redirects';

const project = {
  siteUrl: 'http://localhost:5173',
  additionalRedirectUrls: ['https://wallet.example.com/welcome'],
};

// supabase/auth internal/utilities/request.go `IsRedirectURLValid`
describe('where a mailed link may send the browser', () => {
  it('goes to the site URL when none is asked for, or one not allowed', () => {
    expect(allowedRedirect(project, null)).toBe('http://localhost:5173');
    expect(allowedRedirect(project, 'https://attacker.example/steal')).toBe('http://localhost:5173');
    expect(allowedRedirect(project, 'not a url')).toBe('http://localhost:5173');
  });

  it('honours the site’s host on any port, a loopback address, and an allow-listed origin', () => {
    expect(allowedRedirect(project, 'http://localhost:4000/reset')).toBe('http://localhost:4000/reset');
    expect(allowedRedirect(project, 'http://127.0.0.1:9/x')).toBe('http://127.0.0.1:9/x');
    expect(allowedRedirect(project, 'https://wallet.example.com/other')).toBe(
      'https://wallet.example.com/other',
    );
  });
});
