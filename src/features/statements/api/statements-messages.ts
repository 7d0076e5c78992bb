/** What the statements page tells the person about the period and a failed load. */

export const STATEMENT_FAILED_MESSAGE = 'Failed to load your transactions. Please try again.';

export const PERIOD_ORDER_MESSAGE = 'The start date must be on or before the end date';
