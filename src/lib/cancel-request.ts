import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { createSubmissions, isLostRestAnswer, LostAnswerError } from '@/lib/idempotent-submission';
import { isMoneyGateRefusal } from '@domain/money-gate.ts';
import { supabase } from '@/lib/supabase';
import { isStepUpRefusal, SecondFactorRequiredError } from '@/lib/step-up';
import { walletBalanceQueryKey } from '@/lib/wallet-balance';

/** The kinds of request a person may cancel while pending (`cancel_request`'s `kind`). */
export type CancellableKind = 'buy' | 'sell' | 'withdraw';

export interface Cancellation {
  kind: CancellableKind;
  requestId: string;
}

export const CANCEL_FAILED_MESSAGE = 'Failed to cancel the request. Please try again.';
/** The database's texts a person is shown as they are: they say why and what to do. */
const SHOWN_AS_THEY_ARE = ['Only a pending request can be cancelled'];

/**
 * Cancels the signed-in person's pending request through `cancel_request`, once for its key: a retry after a
 * lost answer is told success again. What it reserved (USD or coins) is free at once.
 */
export async function cancelRequest(
  { kind, requestId }: Cancellation,
  idempotencyKey: string,
): Promise<void> {
  const { error, status } = await supabase.rpc('cancel_request', {
    kind,
    request_id: requestId,
    idempotency_key: idempotencyKey,
  });
  if (!error) return;
  if (isLostRestAnswer(status)) throw new LostAnswerError(error);
  if (isStepUpRefusal(error)) throw new SecondFactorRequiredError(error.message);
  const shownAsItIs = SHOWN_AS_THEY_ARE.includes(error.message) || isMoneyGateRefusal(error.message);
  throw new Error(shownAsItIs ? error.message : CANCEL_FAILED_MESSAGE, { cause: error });
}

const submitCancellation = createSubmissions(cancelRequest);

/** Cancels a request, then refreshes its list (`listKey`) and the balance it released. */
export function useCancelRequest(userId: string, listKey: QueryKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitCancellation,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: listKey }),
        queryClient.invalidateQueries({ queryKey: walletBalanceQueryKey(userId) }),
      ]),
  });
}
