import { isPriceProtectionRefusal } from '@domain/price-protection.ts';
import { BUY_DECISION_FAILED_MESSAGES, INSUFFICIENT_BALANCE_MESSAGE } from './admin-messages';
import { buyRequests } from './get-buy-requests';
import { requestDecisions } from './request-decision';

/**
 * Approves (balance down and a complete buy transaction, in one database transaction) or rejects a
 * pending buy request; 'Insufficient balance' is the specification's text and price protection's refusals
 * name the price, the limit or the expiry; any other refusal reads as the queue's failure text.
 */
export const useDecideBuyRequest = requestDecisions({
  rpcs: { approve: 'approve_buy_request', reject: 'reject_buy_request' },
  failedMessages: BUY_DECISION_FAILED_MESSAGES,
  readableRefusal: (message) => message === INSUFFICIENT_BALANCE_MESSAGE || isPriceProtectionRefusal(message),
  queryKeyRoot: buyRequests.keyRoot,
});
