import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createSubmissions, isLostRestAnswer, LostAnswerError } from '@/lib/idempotent-submission';
import { supabase } from '@/lib/supabase';
import {
  BUY_DECISION_FAILED_MESSAGES,
  INSUFFICIENT_BALANCE_MESSAGE,
  writeFailureMessage,
} from './admin-messages';
import { buyRequestsQueryKeyRoot } from './get-buy-requests';

export interface BuyDecision {
  requestId: string;
  decision: 'approve' | 'reject';
}

/**
 * Approves (balance down and a complete buy transaction, in one database transaction) or rejects a
 * pending buy request through its RPC. The key names this decision: a retry after a lost answer is told
 * success again rather than 'already decided'.
 */
export async function decideBuyRequest(
  { requestId, decision }: BuyDecision,
  idempotencyKey: string,
): Promise<void> {
  const { error, status } = await supabase.rpc(
    decision === 'approve' ? 'approve_buy_request' : 'reject_buy_request',
    { request_id: requestId, idempotency_key: idempotencyKey },
  );
  if (error && isLostRestAnswer(status)) throw new LostAnswerError(error);
  if (error) {
    throw new Error(
      writeFailureMessage(error, BUY_DECISION_FAILED_MESSAGES[decision], [INSUFFICIENT_BALANCE_MESSAGE]),
      {
        cause: error,
      },
    );
  }
}

/** The admin's buy decisions: a lost answer is retried with the same key. */
const submitBuyDecision = createSubmissions(decideBuyRequest);

export function useDecideBuyRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitBuyDecision,
    onSettled: () => queryClient.invalidateQueries({ queryKey: buyRequestsQueryKeyRoot }),
  });
}
