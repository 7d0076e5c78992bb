import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FunctionsHttpError } from '@supabase/supabase-js';
import type { WithdrawalRequest } from '@domain/withdrawal.ts';
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
  request: WithdrawalRequest,
  idempotencyKey: string,
): Promise<void> {
  const { error } = await supabase.functions.invoke('withdrawals', {
    body: request,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  if (!error) return;
  if (isLostFunctionAnswer(error)) throw new LostAnswerError(error);
  if (error instanceof FunctionsHttpError) {
    const body: unknown = await (error.context as Response).json().catch(() => undefined);
    const { error: message, code } = (body ?? {}) as { error?: unknown; code?: unknown };
    if (typeof message === 'string' && message) {
      // A person with two-factor authentication withdraws only from a session that entered a code.
      if (code === insufficientAalCode) throw new SecondFactorRequiredError(message);
      throw new Error(message);
    }
  }
  throw new Error(WITHDRAW_SUBMIT_FAILED_MESSAGE);
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
