import { z } from 'zod';

/** Spec §5: required and a simple e-mail pattern (something@something.something, no spaces). */
const simpleEmailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const emailField = z
  .string()
  .trim()
  .min(1, 'Email is required')
  .regex(simpleEmailPattern, 'Invalid email address');
