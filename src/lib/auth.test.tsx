import { render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useAuth } from './auth';

function ShowsRole() {
  const { role } = useAuth();
  return <p>{role}</p>;
}

describe('useAuth', () => {
  it('refuses to work outside the AuthProvider', () => {
    // React reports the thrown error to the console as well; keep the test output readable.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<ShowsRole />)).toThrow('useAuth must be used within an AuthProvider');
  });
});
