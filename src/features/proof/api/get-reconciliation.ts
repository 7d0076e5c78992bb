import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReconciliationReport } from '@domain/reconciliation-report.ts';
import { supabase } from '@/lib/supabase';
import { latestCheckpointQueryKey } from './get-latest-checkpoint';
import { RECONCILIATION_FAILED_MESSAGE, CHECKPOINT_FAILED_MESSAGE } from './proof-messages';

const reconciliationQueryKey = ['ledger', 'reconciliation'] as const;

/**
 * The reconciliation report (admins at aal2 only): the chain verified from genesis, or after the latest verified
 * checkpoint's head when `fromCheckpoint`; the books checked against every posting either way.
 */
export function useReconciliation(fromCheckpoint: boolean) {
  return useQuery({
    queryKey: [...reconciliationQueryKey, { fromCheckpoint }],
    queryFn: async (): Promise<ReconciliationReport> => {
      const { data, error } = await supabase.rpc('ledger_reconciliation', {
        from_checkpoint: fromCheckpoint,
      });
      if (error) throw new Error(RECONCILIATION_FAILED_MESSAGE, { cause: error });
      return data as unknown as ReconciliationReport;
    },
    // A report is a point in time: it is run again when asked, not on every focus.
    refetchOnWindowFocus: false,
    staleTime: Infinity,
  });
}

/** An admin's checkpoint on demand; the published root and the report then show it. */
export function useCreateCheckpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const { error } = await supabase.rpc('create_ledger_checkpoint');
      if (error) throw new Error(CHECKPOINT_FAILED_MESSAGE, { cause: error });
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: latestCheckpointQueryKey }),
        queryClient.invalidateQueries({ queryKey: reconciliationQueryKey }),
      ]),
  });
}
