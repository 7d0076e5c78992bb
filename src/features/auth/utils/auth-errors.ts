import { isAuthApiError, isAuthRetryableFetchError } from '@supabase/supabase-js';
import { requestTimeoutMessage } from '@/lib/request-timeout';

export const rateLimitedMessage = 'Too many attempts. Please wait a few minutes and try again.';
export const networkFailureMessage =
  'Cannot reach the server. Please check your internet connection and try again.';

/**
 * The message for failures that are not about what the person typed: too many attempts, no network,
 * a request that timed out. `undefined` when the error is an ordinary refusal.
 */
export function connectionProblemMessage(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  if (error.message === requestTimeoutMessage) return requestTimeoutMessage;
  if (isAuthApiError(error) && (error.status === 429 || error.code?.startsWith('over_'))) {
    return rateLimitedMessage;
  }
  if (isAuthRetryableFetchError(error)) return networkFailureMessage;
  return undefined;
}
