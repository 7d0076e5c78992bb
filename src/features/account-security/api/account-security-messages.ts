/** What the account security pages tell the person: sessions and the "this wasn't me" link. */

export const SESSIONS_LOAD_FAILED_MESSAGE = 'Failed to load your sessions';

export const INVALID_NOT_ME_LINK_MESSAGE = 'This link is invalid or has expired';
export const NOT_ME_FAILED_MESSAGE =
  'Your withdrawals could not be locked. Please try again, or contact support.';

export const SIGNED_OUT_OTHERS_MESSAGE = 'Signed out everywhere else';
export const SIGN_OUT_OTHERS_FAILED_MESSAGE = 'Failed to sign out the other sessions. Please try again.';

export const SECURITY_LOG_LOAD_FAILED_MESSAGE = 'Failed to load your security log';
export const SECURITY_LOG_EMPTY_MESSAGE = 'Nothing recorded yet.';
export const SECURITY_LOG_CHECK_FAILED_MESSAGE = 'The chain could not be checked. Please try again.';
