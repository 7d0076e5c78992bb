/** What the watchlist tells the person when starring a coin fails. */

export const WATCHLIST_FAILED_MESSAGE = 'Failed to update your watchlist. Please try again.';
