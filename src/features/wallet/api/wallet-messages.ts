/** The specification's wording for the outcomes of a sell request. */

export const SELL_SUBMITTED_MESSAGE = 'Sell request submitted successfully';
export const SELL_FAILED_MESSAGE = 'Failed to submit sell request. Please try again.';
export const SELL_NOT_SIGNED_IN_MESSAGE = 'You must be logged in to sell';
