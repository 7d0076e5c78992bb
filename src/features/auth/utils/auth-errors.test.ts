import { AuthApiError, AuthRetryableFetchError } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { REQUEST_TIMEOUT_MESSAGE } from '@/lib/request-timeout';
import { logInErrorMessage } from '../api/log-in';
import { signUpErrorMessage } from '../api/sign-up';
import { EMAIL_TAKEN_MESSAGE, NETWORK_FAILURE_MESSAGE, RATE_LIMITED_MESSAGE } from '../api/auth-messages';

// Errors shaped exactly as supabase-js raises them for the answers GoTrue gives.
const wrongPassword = new AuthApiError('Invalid login credentials', 400, 'invalid_credentials');
const tooManyRequests = new AuthApiError('Request rate limit reached', 429, 'over_request_rate_limit');
const noNetwork = new AuthRetryableFetchError('Failed to fetch', 0);
const timedOut = new AuthRetryableFetchError(REQUEST_TIMEOUT_MESSAGE, 0);

describe('what a person is told when logging in fails', () => {
  it('blames the credentials only when the server refused them', () => {
    expect(logInErrorMessage(wrongPassword)).toBe('Login failed. Please check your credentials.');
  });

  it('asks to wait when the server limits attempts', () => {
    expect(logInErrorMessage(tooManyRequests)).toBe(RATE_LIMITED_MESSAGE);
    expect(RATE_LIMITED_MESSAGE).toBe('Too many attempts. Please wait a few minutes and try again.');
  });

  it('points at the connection when the server cannot be reached', () => {
    expect(logInErrorMessage(noNetwork)).toBe(NETWORK_FAILURE_MESSAGE);
  });

  it('says the server is too slow when the request timed out', () => {
    expect(logInErrorMessage(timedOut)).toBe(REQUEST_TIMEOUT_MESSAGE);
  });
});

describe('what a person is told when signing up fails', () => {
  it('says an e-mail already has an account', () => {
    const taken = new AuthApiError('User already registered', 422, 'user_already_exists');
    expect(signUpErrorMessage(taken)).toBe(EMAIL_TAKEN_MESSAGE);
  });

  it("shows the server's own reason otherwise", () => {
    const weak = new AuthApiError('Password should be at least 6 characters.', 422, 'weak_password');
    expect(signUpErrorMessage(weak)).toBe('Password should be at least 6 characters.');
  });

  it('falls back to the specification text when there is no reason', () => {
    expect(signUpErrorMessage(new Error(''))).toBe('Signup failed. Please try again.');
    expect(signUpErrorMessage('nothing useful')).toBe('Signup failed. Please try again.');
  });
});
