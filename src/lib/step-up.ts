/**
 * Step-up: an action the server serves only to a session that verified a second factor (aal2). Kept apart
 * from the two-factor calls, so code that only recognises the refusal does not load the Supabase client.
 */

/** Auth's name (and the Edge Functions') for an action that needs an aal2 session. */
export const insufficientAalCode = 'insufficient_aal';

/** Thrown when the server refused an action until this session verifies a code (403 insufficient_aal). */
export class SecondFactorRequiredError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecondFactorRequiredError';
  }
}

/**
 * The database's step-up refusal of a money request (buy, sell, withdraw) from an aal1 session of a person with
 * a verified factor: 42501 with "Enter a code from your authenticator app to …".
 */
export function isStepUpRefusal(error: { code?: string; message: string }): boolean {
  return error.code === '42501' && error.message.startsWith('Enter a code from your authenticator app');
}

/**
 * Sends `submit`; refused until this session enters a code, it asks for one and sends the same submission
 * (same idempotency key) again. A closed dialog leaves the refusal as it was.
 */
export async function submitWithStepUp<Result>(
  submit: () => Promise<Result>,
  askForCode: () => Promise<boolean>,
): Promise<Result> {
  try {
    return await submit();
  } catch (error) {
    if (!(error instanceof SecondFactorRequiredError) || !(await askForCode())) throw error;
    return await submit();
  }
}
