import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { writeFailureMessage } from './admin-messages';

/** The settings beside the transaction limits that are one whole number each. */
export type WholeNumberSettingName = 'security_hold_hours' | 'long_term_after_days';

/**
 * One whole-number setting of `transaction_limits` (the security hold's hours, the holding period's days):
 * read, and set by an admin at aal2. The database checks the range again; a refusal in the admin's words
 * (`passedOn`) is shown as it is, anything else as `failedMessage`.
 */
export function wholeNumberSetting(
  name: WholeNumberSettingName,
  { failedMessage, passedOn = [] }: { failedMessage: string; passedOn?: readonly string[] },
) {
  const queryKey = ['admin', 'setting', name] as const;

  const read = async (): Promise<number> => {
    const { data, error } = await supabase
      .from('transaction_limits')
      .select('security_hold_hours, long_term_after_days')
      .single();
    if (error) throw error;
    return data[name];
  };

  const write = async (value: number): Promise<void> => {
    const change =
      name === 'security_hold_hours' ? { security_hold_hours: value } : { long_term_after_days: value };
    const { data, error } = await supabase
      .from('transaction_limits')
      .update(change)
      .eq('id', true)
      .select('id');
    if (error || data.length === 0) {
      throw new Error(writeFailureMessage(error, failedMessage, passedOn), { cause: error });
    }
  };

  return {
    useValue: () => useQuery(queryOptions({ queryKey, queryFn: read })),
    useUpdate: () => {
      const queryClient = useQueryClient();
      return useMutation({
        mutationFn: write,
        onSettled: () => queryClient.invalidateQueries({ queryKey }),
      });
    },
  };
}
