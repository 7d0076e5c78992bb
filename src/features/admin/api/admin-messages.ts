/** The specification's wording (sections 5, 6 and 8) for the admin pages. */
export const NO_PERMISSION_MESSAGE = 'You do not have permission to view this page.';
export const INSUFFICIENT_BALANCE_MESSAGE = 'Insufficient balance';

export const USERS_FAILED_MESSAGE = 'Failed to fetch users';
export const DELETE_USER_CONFIRMATION_MESSAGE =
  'Are you sure you want to delete this user? This action cannot be undone and will delete all associated data.';
export const USER_DELETED_MESSAGE = 'User and all associated data deleted';
export const DELETE_USER_FAILED_MESSAGE = 'Failed to delete user';

export const TRANSACTIONS_FAILED_MESSAGE = 'Failed to fetch transactions and status types';
export const TRANSACTION_STATUS_FAILED_MESSAGE = 'Failed to update transaction status';
export const TRANSACTION_STATUS_UPDATED_MESSAGE = 'Transaction status updated';

export const DEPOSIT_CREATED_MESSAGE = 'Deposit created';
export const DEPOSIT_FAILED_MESSAGE = 'Failed to create deposit transaction';

export const STATUS_TYPES_FAILED_MESSAGE = 'Failed to fetch status types';
export const STATUS_TYPE_CREATED_MESSAGE = 'Status type created';
export const STATUS_TYPE_CREATE_FAILED_MESSAGE = 'Failed to create status type';
export const STATUS_TYPE_DUPLICATE_MESSAGE = 'A status type with this name already exists';
export const STATUS_TYPE_DELETED_MESSAGE = 'Status type deleted';
export const STATUS_TYPE_DELETE_FAILED_MESSAGE = 'Failed to delete status type';

export const BUY_REQUESTS_FAILED_MESSAGE = 'Error fetching buy requests. Please try again.';
/**
 * A failed decision on a buy request: approving processes it (balance and buy transaction in one step),
 * rejecting only updates its status, so each has its own text of the specification.
 */
export const BUY_DECISION_FAILED_MESSAGES = {
  approve: 'Failed to process buy request. Please try again.',
  reject: 'Failed to update request status. Please try again.',
} as const;
export const BUY_APPROVED_MESSAGE = 'Buy request approved';
export const BUY_REJECTED_MESSAGE = 'Buy request rejected';

export const SELL_REQUESTS_FAILED_MESSAGE = 'Error fetching sell requests. Please try again.';
/** A failed decision on a sell request, worded as the buy queue's. */
export const SELL_DECISION_FAILED_MESSAGES = {
  approve: 'Failed to process sell request. Please try again.',
  reject: 'Failed to update request status. Please try again.',
} as const;
export const SELL_APPROVED_MESSAGE = 'Sell request approved';
export const SELL_REJECTED_MESSAGE = 'Sell request rejected';

export const WITHDRAW_REQUESTS_FAILED_MESSAGE = 'Failed to fetch data. Please try again later.';
export const WITHDRAW_STATUS_FAILED_MESSAGE = 'Failed to update withdraw request status';
export const WITHDRAW_STATUS_UPDATED_MESSAGE = 'Withdraw request status updated';
export const NO_ENCRYPTED_DATA_MESSAGE = 'No encrypted data available';
export const DECRYPT_FAILED_MESSAGE = 'Unable to decrypt data';

export const LIMITS_UPDATED_MESSAGE = 'Transaction limits updated';
export const LIMITS_UPDATE_FAILED_MESSAGE = 'Failed to update transaction limits';

/** A list whose search or filters match nothing. */
export const NO_MATCHES_MESSAGE = 'Nothing matches the search and filters.';

export const AUDIT_LOG_FAILED_MESSAGE = 'Error loading data. Please try again.';

export const SECURITY_HOLD_RANGE_MESSAGE = 'Security hold must be between 0 and 720 hours';
export const SECURITY_HOLD_UPDATED_MESSAGE = 'Security hold updated';
export const SECURITY_HOLD_UPDATE_FAILED_MESSAGE = 'Failed to update the security hold';

export const NOT_ON_HOLD_MESSAGE = "This person's withdrawals are not on hold";
export const NO_SUCH_PERSON_MESSAGE = 'No account has this e-mail address';
export const HOLD_ENDED_MESSAGE = 'Hold ended: this person can withdraw again';
export const END_HOLD_FAILED_MESSAGE = 'Failed to end the hold';

export const TWO_FACTOR_REMOVED_MESSAGE = 'Two-factor authentication removed';
export const NO_TWO_FACTOR_MESSAGE = 'This person had no two-factor authentication';
export const REMOVE_TWO_FACTOR_FAILED_MESSAGE = 'Failed to remove two-factor authentication';

/**
 * The message a person should read for a failed write: the database's own words when they are one of the
 * specification's (for example 'Insufficient balance'), otherwise the page's generic failure text.
 */
export function writeFailureMessage(error: unknown, fallback: string, known: readonly string[]): string {
  const message = error instanceof Error ? error.message : (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && known.includes(message) ? message : fallback;
}

export const FROZEN_ACCOUNTS_FAILED_MESSAGE = 'Failed to fetch frozen accounts';
export const UNFREEZE_FAILED_MESSAGE = 'The account could not be unfrozen. Please try again.';
export const UNFREEZE_PROPOSED_MESSAGE = 'Unfreeze asked: it waits for a second admin';
export const UNFROZEN_MESSAGE = 'Account unfrozen';
/** The database's own refusals the unfreeze passes on as they are. */
export const NOT_FROZEN_MESSAGE = 'This account is not frozen';
export const ASKED_ALREADY_MESSAGE = 'You approved this already: it is awaiting a second admin';

export const HOLDING_PERIOD_RANGE_MESSAGE =
  'The holding period must be a whole number of days from 1 to 3660';
export const HOLDING_PERIOD_UPDATED_MESSAGE = 'Holding period updated';
export const HOLDING_PERIOD_UPDATE_FAILED_MESSAGE = 'Failed to update the holding period';
