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
