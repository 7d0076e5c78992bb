// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorOf, fieldLabelled, renderForm } from '../testing/render-form';
import { ResetPasswordForm } from './reset-password-form';

describe('reset password form', () => {
  it('asks for an email', async () => {
    const { user } = renderForm(<ResetPasswordForm onSuccess={() => {}} />);
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(errorOf(fieldLabelled('Email'))).toBe('Email is required');
  });

  it('refuses an email that does not look like one', async () => {
    const { user } = renderForm(<ResetPasswordForm onSuccess={() => {}} />);
    await user.type(fieldLabelled('Email'), 'jane@ex ample.com{Enter}');
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
  });
});
