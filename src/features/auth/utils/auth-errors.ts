import { isAuthApiError, isAuthRetryableFetchError } from '@supabase/supabase-js';
import { REQUEST_TIMEOUT_MESSAGE } from '@/lib/request-timeout';
import { RATE_LIMITED_MESSAGE, NETWORK_FAILURE_MESSAGE } from '../api/auth-messages';

/**
 * The message for failures that are not about what the person typed: too many attempts, no network,
 * a request that timed out. `undefined` when the error is an ordinary refusal.
 */
export function connectionProblemMessage(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  if (error.message === REQUEST_TIMEOUT_MESSAGE) return REQUEST_TIMEOUT_MESSAGE;
  if (isAuthApiError(error) && (error.status === 429 || error.code?.startsWith('over_'))) {
    return RATE_LIMITED_MESSAGE;
  }
  if (isAuthRetryableFetchError(error)) return NETWORK_FAILURE_MESSAGE;
  return undefined;
}
