// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorOf, fieldLabelled, renderForm } from '../testing/render-form';
import { LoginForm } from './login-form';

function renderLoginForm() {
  const { user } = renderForm(<LoginForm onSuccess={() => {}} />);
  return {
    user,
    email: fieldLabelled('Email'),
    password: fieldLabelled('Password'),
    submit: () => user.click(screen.getByRole('button', { name: 'Log in' })),
  };
}

describe('login form', () => {
  it('asks for an email and a password when both are empty', async () => {
    const { email, password, submit } = renderLoginForm();
    await submit();
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(errorOf(email)).toBe('Email is required');
    expect(errorOf(password)).toBe('Password is required');
  });

  it('refuses an email that does not look like one', async () => {
    const { user, email, password, submit } = renderLoginForm();
    await user.type(email, 'jane@example');
    await user.type(password, 'secret-pass');
    await submit();
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAttribute('aria-invalid', 'false');
  });

  it('refuses a password shorter than 6 characters', async () => {
    const { user, email, password, submit } = renderLoginForm();
    await user.type(email, 'jane@example.com');
    await user.type(password, '12345');
    await submit();
    expect(await screen.findByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(errorOf(password)).toBe('Password must be at least 6 characters');
    expect(errorOf(email)).toBeNull();
  });

  it('announces errors and puts the cursor on the first wrong field', async () => {
    const { email, submit } = renderLoginForm();
    await submit();
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((alert) => alert.textContent)).toEqual(['Email is required', 'Password is required']);
    expect(email).toHaveFocus();
  });

  it('can be filled and sent with the keyboard alone', async () => {
    const { user, email, password } = renderLoginForm();
    await user.tab();
    expect(email).toHaveFocus();
    await user.keyboard('jane');
    await user.tab();
    expect(password).toHaveFocus();
    await user.keyboard('abc');
    await user.tab();
    expect(screen.getByRole('button', { name: 'Show password' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(password).toHaveAttribute('type', 'text');
    await user.tab();
    expect(screen.getByRole('button', { name: 'Log in' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
  });
});
