import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createFixedSubmissions, isLostRestAnswer, LostAnswerError } from '@/lib/idempotent-submission';
import { isMoneyGateRefusal } from '@domain/money-gate.ts';
import { expiryAfter, type RequestLifetime } from '@domain/price-protection.ts';
import { isStepUpRefusal, SecondFactorRequiredError } from '@/lib/step-up';
import { supabase } from '@/lib/supabase';
import { walletHoldingsQueryKey } from './get-holdings';
import { walletSellRequestsQueryKey } from './get-sell-requests';
import { SELL_FAILED_MESSAGE, SELL_NOT_SIGNED_IN_MESSAGE } from './wallet-messages';

export interface SellOrder {
  cryptocurrency: string;
  /** Coins to sell: decimal text with at most 8 places. */
  quantity: string;
  /** The least USD per coin the person accepts (the price shown less their tolerance); none without a price. */
  limitPrice: number | undefined;
  /** How long it may wait for an admin, as the person picked. */
  lifetime: RequestLifetime;
}

/** A sell order as sent: its expiry (ISO 8601) fixed when it first went, and sent again with its key. */
interface SentSellOrder extends SellOrder {
  expiresAt: string;
}

/**
 * Creates a pending sell request once for its idempotency key. The database's refusal of a quantity
 * beyond the holdings (pending sells included) names the coin, and a lock's refusal says why and whom to
 * contact, so both are shown as they are.
 */
export async function createSellRequest(order: SentSellOrder, idempotencyKey: string): Promise<void> {
  const { error, status } = await supabase.rpc('create_sell_request', {
    cryptocurrency: order.cryptocurrency,
    // At most 8 places: the shortest text of this number is the quantity typed.
    quantity: Number(order.quantity),
    idempotency_key: idempotencyKey,
    limit_price: order.limitPrice,
    expires_at: order.expiresAt,
  });
  if (!error) return;
  if (isLostRestAnswer(status)) throw new LostAnswerError(error);
  if (status === 401) throw new Error(SELL_NOT_SIGNED_IN_MESSAGE, { cause: error });
  if (isStepUpRefusal(error)) throw new SecondFactorRequiredError(error.message);
  const shownAsItIs = error.message.startsWith('Insufficient ') || isMoneyGateRefusal(error.message);
  throw new Error(shownAsItIs ? error.message : SELL_FAILED_MESSAGE, { cause: error });
}

/** The Sell form's submissions: a lost answer is retried with the same key. */
const submitSellRequest = createFixedSubmissions(createSellRequest, (order: SellOrder) => ({
  ...order,
  expiresAt: expiryAfter(order.lifetime),
}));

/** Submits a sell request; the person's sell requests and holdings (what is reserved) refresh however it ends. */
export function useCreateSellRequest(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitSellRequest,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: walletSellRequestsQueryKey(userId) }),
        queryClient.invalidateQueries({ queryKey: walletHoldingsQueryKey(userId) }),
      ]),
  });
}
