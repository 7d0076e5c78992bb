/** What the notification bell tells the person when it cannot load or mark their notifications. */

export const NOTIFICATIONS_LOAD_FAILED_MESSAGE = 'Failed to load your notifications';
export const MARK_READ_FAILED_MESSAGE = 'Failed to mark your notifications read. Please try again.';
