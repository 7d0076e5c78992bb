import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createSubmissions, isLostRestAnswer, LostAnswerError } from '@/lib/idempotent-submission';
import { supabase } from '@/lib/supabase';

export interface RequestDecision {
  requestId: string;
  decision: 'approve' | 'reject';
  /** A rejection's reason, which the person reads. */
  reason?: string;
}

/**
 * A queue's Approve and Reject through its keyed RPCs. The key names one decision: a retry after a lost answer
 * is told success again rather than 'already decided'. A refusal reads as the database's own words when
 * `readableRefusal` says a person should read them, else as the queue's failure text.
 */
export function requestDecisions({
  rpcs,
  failedMessages,
  readableRefusal,
  queryKeyRoot,
}: {
  rpcs: Record<
    RequestDecision['decision'],
    'approve_buy_request' | 'reject_buy_request' | 'approve_sell_request' | 'reject_sell_request'
  >;
  failedMessages: Record<RequestDecision['decision'], string>;
  readableRefusal: (message: string) => boolean;
  queryKeyRoot: readonly string[];
}) {
  async function decide(
    { requestId, decision, reason }: RequestDecision,
    idempotencyKey: string,
  ): Promise<void> {
    const { error, status } = await supabase.rpc(rpcs[decision], {
      request_id: requestId,
      idempotency_key: idempotencyKey,
      ...(decision === 'reject' && reason ? { reason } : {}),
    });
    if (error && isLostRestAnswer(status)) throw new LostAnswerError(error);
    if (error) {
      throw new Error(readableRefusal(error.message) ? error.message : failedMessages[decision], {
        cause: error,
      });
    }
  }

  /** The admin's decisions: a lost answer is retried with the same key. */
  const submitDecision = createSubmissions(decide);

  return function useDecideRequest() {
    const queryClient = useQueryClient();
    return useMutation({
      mutationFn: submitDecision,
      onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeyRoot }),
    });
  };
}
