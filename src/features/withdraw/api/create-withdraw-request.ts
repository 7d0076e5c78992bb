import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WithdrawalSubmission } from '@domain/withdrawal.ts';
import { readFunctionRefusal } from '@/lib/function-refusal';
import { createSubmissions, isLostFunctionAnswer, LostAnswerError } from '@/lib/idempotent-submission';
import { supabase } from '@/lib/supabase';
import { insufficientAalCode, SecondFactorRequiredError } from '@/lib/step-up';
import { walletBalanceQueryKey } from '@/lib/wallet-balance';
import { recentWithdrawRequestsQueryKey } from './get-recent-withdraw-requests';
import { WITHDRAW_SUBMIT_FAILED_MESSAGE } from './withdraw-messages';

/**
 * Sends the request to the `withdrawals` Edge Function, which encrypts the details and reserves the amount,
 * once per idempotency key (a repeat answers the same request). A refusal (limits, insufficient balance,
 * invalid details) is thrown with the function's own message; the step-up refusal as
 * SecondFactorRequiredError, so the form asks for a code and sends the same submission again.
 */
export async function createWithdrawRequest(
  request: WithdrawalSubmission,
  idempotencyKey: string,
): Promise<void> {
  const { error } = await supabase.functions.invoke('withdrawals', {
    body: request,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  if (!error) return;
  if (isLostFunctionAnswer(error)) throw new LostAnswerError(error);
  const refusal = await readFunctionRefusal(error);
  // A person with two-factor authentication withdraws only from a session that entered a code.
  if (refusal?.code === insufficientAalCode) throw new SecondFactorRequiredError(refusal.message);
  throw new Error(refusal?.message || WITHDRAW_SUBMIT_FAILED_MESSAGE, { cause: error });
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
