/** What the proof-of-liabilities pages say when a checkpoint, a proof or a reconciliation fails. */

export const LATEST_CHECKPOINT_FAILED_MESSAGE = 'Failed to load the latest checkpoint. Please try again.';

export const MY_PROOF_FAILED_MESSAGE = 'Failed to load your proof. Please try again.';

export const RECONCILIATION_FAILED_MESSAGE = 'Failed to run the reconciliation. Please try again.';
export const CHECKPOINT_FAILED_MESSAGE = 'Failed to make a checkpoint. Please try again.';
