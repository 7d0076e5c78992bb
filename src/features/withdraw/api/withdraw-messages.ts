/** The specification's wording (section 8) for withdraw requests, plus the success text it leaves open. */
export const WITHDRAW_SUBMITTED_MESSAGE = 'Withdraw request submitted successfully';
export const WITHDRAW_SUBMIT_FAILED_MESSAGE = 'Failed to submit withdraw request';
export const SYSTEM_UPDATING_MESSAGE = 'The system is currently updating. Please try again in a few minutes.';
export const withdrawRequestsFailedMessage = (reason: string) =>
  `Failed to fetch withdraw requests: ${reason}`;
