import { useMutation, useQueryClient } from '@tanstack/react-query';
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
 * pending buy request through its RPC.
 */
export async function decideBuyRequest({ requestId, decision }: BuyDecision): Promise<void> {
  const { error } = await supabase.rpc(
    decision === 'approve' ? 'approve_buy_request' : 'reject_buy_request',
    {
      request_id: requestId,
    },
  );
  if (error) {
    throw new Error(
      writeFailureMessage(error, BUY_DECISION_FAILED_MESSAGES[decision], [INSUFFICIENT_BALANCE_MESSAGE]),
      {
        cause: error,
      },
    );
  }
}

export function useDecideBuyRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideBuyRequest,
    onSettled: () => queryClient.invalidateQueries({ queryKey: buyRequestsQueryKeyRoot }),
  });
}
