import { isPriceProtectionRefusal } from '@domain/price-protection.ts';
import { SELL_DECISION_FAILED_MESSAGES } from './admin-messages';
import { sellRequests } from './get-sell-requests';
import { requestDecisions } from './request-decision';

/**
 * The database's refusals of a sale an admin should read as they are: too few coins, no price, too small (and
 * price protection's).
 */
const SELL_REFUSALS = /^(Insufficient |No current price for |This sale is worth less than )/;

/**
 * Approves (USD credited at the server's current price as a complete sell entry, in one database
 * transaction) or rejects a pending sell request.
 */
export const useDecideSellRequest = requestDecisions({
  rpcs: { approve: 'approve_sell_request', reject: 'reject_sell_request' },
  failedMessages: SELL_DECISION_FAILED_MESSAGES,
  readableRefusal: (message) => SELL_REFUSALS.test(message) || isPriceProtectionRefusal(message),
  queryKeyRoot: sellRequests.keyRoot,
});
