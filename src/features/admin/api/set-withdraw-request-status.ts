import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createSubmissions, isLostRestAnswer, LostAnswerError } from '@/lib/idempotent-submission';
import { supabase } from '@/lib/supabase';
import {
  INSUFFICIENT_BALANCE_MESSAGE,
  WITHDRAW_STATUS_FAILED_MESSAGE,
  writeFailureMessage,
} from './admin-messages';
import { withdrawRequests } from './get-withdraw-requests';

export interface WithdrawStatusChange {
  requestId: string;
  status: string;
  /** A rejection's reason, which the person reads. */
  reason?: string;
}

/**
 * Sets a withdraw request's status through `set_withdraw_request_status`: approved pays out (a complete
 * withdraw transaction), approved and rejected are final, anything else labels the open request. The key
 * names this change: a retry after a lost answer is told success again rather than 'already decided'.
 */
export async function setWithdrawRequestStatus(
  { requestId, status, reason }: WithdrawStatusChange,
  idempotencyKey: string,
): Promise<void> {
  const { error, status: httpStatus } = await supabase.rpc('set_withdraw_request_status', {
    request_id: requestId,
    new_status: status,
    idempotency_key: idempotencyKey,
    ...(reason ? { reason } : {}),
  });
  if (error && isLostRestAnswer(httpStatus)) throw new LostAnswerError(error);
  if (error) {
    throw new Error(
      writeFailureMessage(error, WITHDRAW_STATUS_FAILED_MESSAGE, [INSUFFICIENT_BALANCE_MESSAGE]),
      {
        cause: error,
      },
    );
  }
}

/** The admin's withdraw status changes: a lost answer is retried with the same key. */
const submitWithdrawStatus = createSubmissions(setWithdrawRequestStatus);

export function useSetWithdrawRequestStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitWithdrawStatus,
    onSettled: () => queryClient.invalidateQueries({ queryKey: withdrawRequests.keyRoot }),
  });
}
