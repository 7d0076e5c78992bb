// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { changePasswordInputSchema } from '../api/change-password';
import { errorOf, fieldLabelled, renderForm } from '../testing/render-form';
import { ChangePasswordForm } from './change-password-form';

function renderChangePasswordForm() {
  const { user } = renderForm(<ChangePasswordForm />);
  return {
    user,
    current: fieldLabelled('Current password'),
    next: fieldLabelled('New password'),
    confirm: fieldLabelled('Confirm new password'),
    submit: () => user.click(screen.getByRole('button', { name: 'Update password' })),
  };
}

describe('change password form', () => {
  it('asks for the current password', async () => {
    const { user, next, confirm, current, submit } = renderChangePasswordForm();
    await user.type(next, 'new-pass-1');
    await user.type(confirm, 'new-pass-1');
    await submit();
    expect(await screen.findByText('Current password is required')).toBeInTheDocument();
    expect(errorOf(current)).toBe('Current password is required');
  });

  it('refuses a new password shorter than 6 characters', async () => {
    const { user, current, next, confirm, submit } = renderChangePasswordForm();
    await user.type(current, 'old-pass-1');
    await user.type(next, '12345');
    await user.type(confirm, '12345');
    await submit();
    expect(await screen.findByText('Password should be at least 6 characters long')).toBeInTheDocument();
    expect(errorOf(next)).toBe('Password should be at least 6 characters long');
  });

  it('refuses a confirmation that differs from the new password', async () => {
    const { user, current, next, confirm, submit } = renderChangePasswordForm();
    await user.type(current, 'old-pass-1');
    await user.type(next, 'new-pass-1');
    await user.type(confirm, 'new-pass-2');
    await submit();
    expect(await screen.findByText('New passwords do not match')).toBeInTheDocument();
    expect(errorOf(confirm)).toBe('New passwords do not match');
    expect(errorOf(next)).toBeNull();
  });

  it('accepts matching new passwords of 6 characters', () => {
    expect(
      changePasswordInputSchema.safeParse({
        currentPassword: 'old-pass-1',
        newPassword: '123456',
        confirmPassword: '123456',
      }).success,
    ).toBe(true);
  });

  it('hides every password by default', () => {
    const { current, next, confirm } = renderChangePasswordForm();
    for (const field of [current, next, confirm]) expect(field).toHaveAttribute('type', 'password');
  });
});
