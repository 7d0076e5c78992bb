import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WithdrawalRequest } from '@domain/withdrawal.ts';
import { functionRefusal } from '@/lib/function-refusal';
import { createSubmissions, isLostFunctionAnswer, LostAnswerError } from '@/lib/idempotent-submission';
import { supabase } from '@/lib/supabase';
import { walletBalanceQueryKey } from '@/lib/wallet-balance';
import { recentWithdrawRequestsQueryKey } from './get-recent-withdraw-requests';
import { WITHDRAW_SUBMIT_FAILED_MESSAGE } from './withdraw-messages';

/**
 * Sends the request to the `withdrawals` Edge Function, which encrypts the details and reserves the amount,
 * once per idempotency key (a repeat answers the same request). A refusal (limits, insufficient balance,
 * invalid details) is thrown with the function's own message.
 */
export async function createWithdrawRequest(
  request: WithdrawalRequest,
  idempotencyKey: string,
): Promise<void> {
  const { error } = await supabase.functions.invoke('withdrawals', {
    body: request,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  if (!error) return;
  if (isLostFunctionAnswer(error)) throw new LostAnswerError(error);
  throw new Error((await functionRefusal(error)) || WITHDRAW_SUBMIT_FAILED_MESSAGE, { cause: error });
}

/** The withdraw form's submissions: a lost answer is retried with the same key. */
const submitWithdrawRequest = createSubmissions(createWithdrawRequest);

export function useCreateWithdrawRequest(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitWithdrawRequest,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: recentWithdrawRequestsQueryKey(userId) }),
        queryClient.invalidateQueries({ queryKey: walletBalanceQueryKey(userId) }),
      ]),
  });
}
