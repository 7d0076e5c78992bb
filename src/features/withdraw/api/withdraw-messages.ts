/** The specification's wording (section 8) for withdraw requests, plus the success text it leaves open. */
export const WITHDRAW_SUBMITTED_MESSAGE = 'Withdraw request submitted successfully';
export const WITHDRAW_SUBMIT_FAILED_MESSAGE = 'Failed to submit withdraw request';
export const SYSTEM_UPDATING_MESSAGE = 'The system is currently updating. Please try again in a few minutes.';

/**
 * Postgres and PostgREST codes for a table, view or function that does not exist (yet): what a
 * half-applied migration looks like, the counterpart of the specification's missing index.
 */
const missingObjectCodes = new Set(['42P01', '42883', 'PGRST202', 'PGRST205']);

/** The list's error text for an error from the database. */
export function withdrawRequestsErrorMessage(error: { code?: string; message: string }): string {
  return error.code && missingObjectCodes.has(error.code)
    ? SYSTEM_UPDATING_MESSAGE
    : `Failed to fetch withdraw requests: ${error.message}`;
}
