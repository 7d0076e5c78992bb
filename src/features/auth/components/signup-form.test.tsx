// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signUpInputSchema } from '../api/sign-up';
import { errorOf, fieldLabelled, renderForm } from '../testing/render-form';
import { SignupForm } from './signup-form';

function renderSignupForm() {
  const { user } = renderForm(<SignupForm onSuccess={() => {}} />);
  const fields = {
    fullName: fieldLabelled('Full name'),
    email: fieldLabelled('Email'),
    password: fieldLabelled('Password'),
    confirmPassword: fieldLabelled('Confirm password'),
  };
  return {
    user,
    ...fields,
    fill: async (values: Partial<Record<keyof typeof fields, string>>) => {
      for (const [name, value] of Object.entries(values)) {
        await user.type(fields[name as keyof typeof fields], value);
      }
    },
    submit: () => user.click(screen.getByRole('button', { name: 'Sign up' })),
  };
}

const valid = {
  fullName: 'Jane Doe',
  email: 'jane@example.com',
  password: 'abcd1234',
  confirmPassword: 'abcd1234',
};

describe('signup form', () => {
  it('asks for a full name', async () => {
    const { fill, submit, fullName } = renderSignupForm();
    await fill({ ...valid, fullName: '   ' });
    await submit();
    expect(await screen.findByText('Full name is required')).toBeInTheDocument();
    expect(errorOf(fullName)).toBe('Full name is required');
  });

  it('refuses an email that does not look like one', async () => {
    const { fill, submit, email } = renderSignupForm();
    await fill({ ...valid, email: 'jane.example.com' });
    await submit();
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
    expect(errorOf(email)).toBe('Invalid email address');
  });

  it('refuses a password shorter than 8 characters', async () => {
    const { fill, submit, password } = renderSignupForm();
    await fill({ ...valid, password: 'abc1234', confirmPassword: 'abc1234' });
    await submit();
    expect(await screen.findByText('Password must be at least 8 characters long')).toBeInTheDocument();
    expect(errorOf(password)).toBe('Password must be at least 8 characters long');
  });

  it.each(['abcdefgh', '12345678'])(
    'refuses the password %s without both letters and numbers',
    async (weak) => {
      const { fill, submit, password } = renderSignupForm();
      await fill({ ...valid, password: weak, confirmPassword: weak });
      await submit();
      expect(await screen.findByText('Password must contain both letters and numbers')).toBeInTheDocument();
      expect(errorOf(password)).toBe('Password must contain both letters and numbers');
    },
  );

  it('refuses a confirmation that differs from the password', async () => {
    const { fill, submit, confirmPassword, password } = renderSignupForm();
    await fill({ ...valid, confirmPassword: 'abcd12345' });
    await submit();
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(errorOf(confirmPassword)).toBe('Passwords do not match');
    expect(errorOf(password)).toBeNull();
  });

  it('accepts a full name, an email and an 8-character password of letters and numbers', () => {
    expect(signUpInputSchema.safeParse(valid).success).toBe(true);
  });

  it('shows and hides the password with its toggle', async () => {
    const { user, fill, password } = renderSignupForm();
    await fill({ password: 'abcd1234' });
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(password).toHaveAttribute('type', 'password');
    await user.click(toggle);
    expect(password).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await user.click(toggle);
    expect(password).toHaveAttribute('type', 'password');
    expect(password).toHaveValue('abcd1234');
  });
});
