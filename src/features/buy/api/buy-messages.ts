/** The specification's wording (sections 6 and 8) for the outcomes of a buy request. */
export const BUY_SUBMITTED_MESSAGE = 'Buy request submitted successfully';
export const SUBMIT_FAILED_MESSAGE = 'Failed to submit buy request. Please try again.';
export const NOT_SIGNED_IN_MESSAGE = 'You must be logged in to make a purchase';
export const BUY_REQUESTS_FAILED_MESSAGE = 'Failed to fetch buy requests. Please try again later.';
/** A buy reserves its USD at once (a deviation, docs/architecture.md): the database's text for one it does not cover. */
export const BUY_NOT_COVERED_MESSAGE = 'Insufficient balance (including all pending requests)';
export const MARKET_FAILED_MESSAGE = 'Failed to fetch cryptocurrency data. Please try again later.';
