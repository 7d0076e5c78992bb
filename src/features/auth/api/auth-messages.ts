/** What signing up, logging in and out, and changing or resetting a password tell the person. */

export const LOG_IN_SUCCEEDED_MESSAGE = 'Login successful';
export const LOG_IN_FAILED_MESSAGE = 'Login failed. Please check your credentials.';

export const LOG_OUT_SUCCEEDED_MESSAGE = 'Logged out successfully';
export const LOG_OUT_FAILED_MESSAGE = 'Logout failed. Please try again.';

export const CONFIRM_EMAIL_MESSAGE =
  'Signup successful! Please confirm your email address: the link we sent you opens your wallet.';
export const SIGN_UP_FAILED_MESSAGE = 'Signup failed. Please try again.';
export const EMAIL_TAKEN_MESSAGE =
  'An account with this email already exists. Please log in or reset your password.';

export const RESET_EMAIL_FAILED_MESSAGE = 'Failed to send reset email';
export const RESET_EMAIL_SENT_MESSAGE = 'Password reset email sent. Please check your inbox.';

export const PASSWORDS_MISMATCH_MESSAGE = 'Passwords do not match';
export const NEW_PASSWORDS_MISMATCH_MESSAGE = 'New passwords do not match';

export const SAME_PASSWORD_MESSAGE = 'Your new password must be different from your old one.';
export const WEAK_PASSWORD_MESSAGE = 'This password is too easy to guess. Please choose another one.';
export const RESET_LINK_SESSION_ENDED_MESSAGE =
  'Your reset link has expired or was used elsewhere. Please ask for a new one.';

export const PASSWORD_UPDATED_MESSAGE = 'Password updated successfully';
export const PASSWORD_UPDATE_FAILED_MESSAGE = 'Failed to update password';
export const CURRENT_PASSWORD_WRONG_MESSAGE = 'Your current password is incorrect.';
export const ACCOUNT_FROZEN_PASSWORD_MESSAGE =
  'Your account is frozen, so its password cannot change. Unfreeze it on the Account page first.';

export const TWO_FACTOR_ON_MESSAGE = 'Two-factor authentication is on';

export const RATE_LIMITED_MESSAGE = 'Too many attempts. Please wait a few minutes and try again.';
export const NETWORK_FAILURE_MESSAGE =
  'Cannot reach the server. Please check your internet connection and try again.';
