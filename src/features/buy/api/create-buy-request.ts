import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import {
  createFixedSubmissions,
  isLostRestAnswer,
  LostAnswerError,
  type SubmissionOutcome,
} from '@/lib/idempotent-submission';
import { isLimitRefusal } from '@domain/limits.ts';
import { isMoneyGateRefusal } from '@domain/money-gate.ts';
import { expiryAfter } from '@domain/price-protection.ts';
import { mapPagedRows, type RowsPage } from '@/lib/paged-list';
import { supabase } from '@/lib/supabase';
import { isStepUpRefusal, SecondFactorRequiredError } from '@/lib/step-up';
import { transactionLimitsQueryKey } from '@/lib/transaction-limits';
import { walletBalanceQueryKey } from '@/lib/wallet-balance';
import type { BuyOrder, BuyRequest, SentBuyOrder } from '../types';
import { BUY_NOT_COVERED_MESSAGE, NOT_SIGNED_IN_MESSAGE, SUBMIT_FAILED_MESSAGE } from './buy-messages';
import { buyRequestsQueryKey } from './get-buy-requests';

/**
 * Creates a pending buy request once for its idempotency key (a repeat answers the same request); the
 * database checks the amount against the current limits. Its limit texts are the specification's on-submit
 * texts (such a refusal means the limits changed since the page loaded), and a lock's refusal says why and
 * whom to contact, so both are shown as they are.
 */
export async function createBuyRequest(order: SentBuyOrder, idempotencyKey: string): Promise<BuyRequest> {
  const { data, error, status } = await supabase
    .rpc('create_buy_request', {
      cryptocurrency: order.cryptocurrency,
      amount: order.amount,
      idempotency_key: idempotencyKey,
      limit_price: order.limitPrice,
      expires_at: order.expiresAt,
    })
    .single();
  if (error) {
    if (isLostRestAnswer(status)) throw new LostAnswerError(error);
    // 401: the session expired or was signed out elsewhere.
    if (status === 401) throw new Error(NOT_SIGNED_IN_MESSAGE, { cause: error });
    if (isStepUpRefusal(error)) throw new SecondFactorRequiredError(error.message);
    const shownAsItIs =
      isLimitRefusal(error.message) ||
      isMoneyGateRefusal(error.message) ||
      error.message === BUY_NOT_COVERED_MESSAGE;
    throw new Error(shownAsItIs ? error.message : SUBMIT_FAILED_MESSAGE, { cause: error });
  }
  const { id, cryptocurrency, amount, status: requestStatus, date, expires_at, limit_price } = data;
  return {
    rejection_reason: null,
    fill_price: null,
    quantity: null,
    id,
    cryptocurrency,
    amount: Number(amount),
    status: requestStatus,
    date,
    expires_at,
    limit_price: limit_price === null ? null : Number(limit_price),
  };
}

/** The buy form's submissions: a lost answer is retried with the same key. */
const submitBuyRequest = createFixedSubmissions(createBuyRequest, (order: BuyOrder) => ({
  ...order,
  expiresAt: expiryAfter(order.lifetime),
}));

/**
 * Submits a buy request and shows it at the top of the list at once (as pending), replaced by the
 * stored row when the server answers, or removed if it refuses.
 */
export function useCreateBuyRequest(userId: string | undefined) {
  const queryClient = useQueryClient();
  const queryKey = buyRequestsQueryKey(userId ?? '');
  const setRows = (change: (rows: BuyRequest[], page: number) => BuyRequest[]) =>
    queryClient.setQueryData<InfiniteData<RowsPage<BuyRequest>>>(queryKey, (data) =>
      mapPagedRows(data, change),
    );
  return useMutation<SubmissionOutcome<BuyRequest>, Error, BuyOrder, { optimisticId: string }>({
    mutationFn: (order: BuyOrder) => {
      if (!userId) return Promise.reject(new Error(NOT_SIGNED_IN_MESSAGE));
      return submitBuyRequest(order);
    },
    onMutate: async (order) => {
      await queryClient.cancelQueries({ queryKey });
      const optimistic: BuyRequest = {
        id: `optimistic-${crypto.randomUUID()}`,
        cryptocurrency: order.cryptocurrency,
        amount: order.amount,
        status: 'pending',
        date: new Date().toISOString(),
        // Until the stored row replaces it.
        expires_at: expiryAfter(order.lifetime),
        limit_price: order.limitPrice ?? null,
        rejection_reason: null,
        fill_price: null,
        quantity: null,
      };
      setRows((rows, page) => (page === 0 ? [optimistic, ...rows] : rows));
      return { optimisticId: optimistic.id };
    },
    onSuccess: ({ result: created }, _order, context) => {
      setRows((rows) => rows.map((row) => (row.id === context.optimisticId ? created : row)));
    },
    onError: (error, _order, context) => {
      setRows((rows) => rows.filter((row) => row.id !== context?.optimisticId));
      // The form validates against the limits it shows: fetch the current ones.
      if (isLimitRefusal(error.message)) {
        void queryClient.invalidateQueries({ queryKey: transactionLimitsQueryKey });
      }
    },
    // Not awaited: the person hears the outcome at once, whatever the list's refetch meets.
    // The request reserves its amount: the available balance drops with it.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey });
      void queryClient.invalidateQueries({ queryKey: walletBalanceQueryKey(userId ?? '') });
    },
  });
}
