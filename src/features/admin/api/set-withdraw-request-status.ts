import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import {
  INSUFFICIENT_BALANCE_MESSAGE,
  WITHDRAW_STATUS_FAILED_MESSAGE,
  writeFailureMessage,
} from './admin-messages';
import { withdrawRequestsQueryKeyRoot } from './get-withdraw-requests';

export interface WithdrawStatusChange {
  requestId: string;
  status: string;
}

/**
 * Sets a withdraw request's status through `set_withdraw_request_status`: approved pays out (a complete
 * withdraw transaction), approved and rejected are final, anything else labels the open request.
 */
export async function setWithdrawRequestStatus({ requestId, status }: WithdrawStatusChange): Promise<void> {
  const { error } = await supabase.rpc('set_withdraw_request_status', {
    request_id: requestId,
    new_status: status,
  });
  if (error) {
    throw new Error(
      writeFailureMessage(error, WITHDRAW_STATUS_FAILED_MESSAGE, [INSUFFICIENT_BALANCE_MESSAGE]),
      {
        cause: error,
      },
    );
  }
}

export function useSetWithdrawRequestStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setWithdrawRequestStatus,
    onSettled: () => queryClient.invalidateQueries({ queryKey: withdrawRequestsQueryKeyRoot }),
  });
}
