// @vitest-environment jsdom
import { AuthApiError, AuthSessionMissingError } from '@supabase/supabase-js';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signUpInputSchema } from '../api/sign-up';
import { setNewPasswordError, setNewPasswordInputSchema } from '../api/set-new-password';
import { errorOf, fieldLabelled, renderForm } from '../testing/render-form';
import { SetNewPasswordForm } from './set-new-password-form';
import {
  RESET_LINK_SESSION_ENDED_MESSAGE,
  SAME_PASSWORD_MESSAGE,
  WEAK_PASSWORD_MESSAGE,
  RATE_LIMITED_MESSAGE,
} from '../api/auth-messages';

function renderSetNewPasswordForm() {
  const { user } = renderForm(<SetNewPasswordForm onUpdated={() => {}} />);
  return {
    user,
    next: fieldLabelled('New password'),
    confirm: fieldLabelled('Confirm new password'),
    submit: () => user.click(screen.getByRole('button', { name: 'Update password' })),
  };
}

describe("the reset link's new-password form", () => {
  it('refuses a password of letters alone, which sign-up refuses too (auth-ui accepted "abcdef")', async () => {
    const { user, next, confirm, submit } = renderSetNewPasswordForm();
    await user.type(next, 'abcdefgh');
    await user.type(confirm, 'abcdefgh');
    await submit();
    expect(await screen.findByText('Password must contain both letters and numbers')).toBeInTheDocument();
    expect(errorOf(next)).toBe('Password must contain both letters and numbers');
  });

  it("refuses a password shorter than sign-up's 8 characters", async () => {
    const { user, next, confirm, submit } = renderSetNewPasswordForm();
    await user.type(next, 'abc123');
    await user.type(confirm, 'abc123');
    await submit();
    expect(await screen.findByText('Password must be at least 8 characters long')).toBeInTheDocument();
  });

  it('refuses a confirmation that differs, under the confirmation', async () => {
    const { user, next, confirm, submit } = renderSetNewPasswordForm();
    await user.type(next, 'new-pass-1');
    await user.type(confirm, 'new-pass-2');
    await submit();
    expect(await screen.findByText('New passwords do not match')).toBeInTheDocument();
    expect(errorOf(confirm)).toBe('New passwords do not match');
    expect(errorOf(next)).toBeNull();
  });

  it('accepts what sign-up accepts, and refuses what it refuses', () => {
    for (const password of ['abcdef', 'abcdefgh', '12345678', 'abc1234', 'abcd1234']) {
      const asSignUp = signUpInputSchema.safeParse({
        fullName: 'Jane',
        email: 'jane@example.com',
        password,
        confirmPassword: password,
      }).success;
      const asReset = setNewPasswordInputSchema.safeParse({
        newPassword: password,
        confirmPassword: password,
      }).success;
      expect(asReset, password).toBe(asSignUp);
    }
  });

  it('hides both passwords by default', () => {
    const { next, confirm } = renderSetNewPasswordForm();
    for (const field of [next, confirm]) expect(field).toHaveAttribute('type', 'password');
  });
});

describe("GoTrue's refusals of a new password, in plain words", () => {
  it('the same password as before, under the field', () => {
    const same = new AuthApiError(
      'New password should be different from the old password.',
      422,
      'same_password',
    );
    expect(setNewPasswordError(same)).toEqual({ message: SAME_PASSWORD_MESSAGE, field: 'newPassword' });
  });

  it('a password the server finds weak, under the field', () => {
    const weak = new AuthApiError('Password is known to be weak and easy to guess', 422, 'weak_password');
    expect(setNewPasswordError(weak)).toEqual({ message: WEAK_PASSWORD_MESSAGE, field: 'newPassword' });
  });

  it("the link's session ended meanwhile: ask for a new link", () => {
    const ended = new AuthApiError(
      'Session from session_id claim in JWT does not exist',
      403,
      'session_not_found',
    );
    expect(setNewPasswordError(ended)).toEqual({ message: RESET_LINK_SESSION_ENDED_MESSAGE });
    expect(setNewPasswordError(new AuthSessionMissingError())).toEqual({
      message: RESET_LINK_SESSION_ENDED_MESSAGE,
    });
  });

  it('too many attempts: wait', () => {
    const limited = new AuthApiError('Request rate limit reached', 429, 'over_request_rate_limit');
    expect(setNewPasswordError(limited)).toEqual({ message: RATE_LIMITED_MESSAGE });
  });
});
