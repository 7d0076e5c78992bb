import { z } from 'zod';

/**
 * How strong a password chosen without the current one must be: a new account's, or one set from a
 * reset link (where the old one is forgotten, so nothing weaker than sign-up's rule may replace it).
 */
export const newPasswordField = z
  .string()
  .min(8, 'Password must be at least 8 characters long')
  .regex(/^(?=.*[A-Za-z])(?=.*\d)/, 'Password must contain both letters and numbers');

/**
 * The refinement of a form that asks for a password twice: `confirmPassword` must repeat the field
 * `passwordKey`, else `message` shows under the confirmation.
 */
export function confirmationMatches<Key extends string>(
  passwordKey: Key,
  message: string,
): [
  check: (input: Record<Key | 'confirmPassword', string>) => boolean,
  params: { message: string; path: string[] },
] {
  return [(input) => input[passwordKey] === input.confirmPassword, { message, path: ['confirmPassword'] }];
}
