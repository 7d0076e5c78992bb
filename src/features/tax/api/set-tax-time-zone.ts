import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { taxSettingsQueryKey } from './get-tax-settings';

export const SET_TIME_ZONE_FAILED_MESSAGE = 'Failed to save your time zone. Please try again.';

/** Sets the time zone tax years are counted in (the database refuses a name it does not know). */
export async function setTaxTimeZone(timeZone: string): Promise<string> {
  const { data, error } = await supabase.rpc('set_tax_time_zone', { time_zone: timeZone });
  if (error)
    throw new Error(error.code === 'P0001' ? error.message : SET_TIME_ZONE_FAILED_MESSAGE, { cause: error });
  return data;
}

export function useSetTaxTimeZone(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setTaxTimeZone,
    onSettled: () => queryClient.invalidateQueries({ queryKey: taxSettingsQueryKey(userId) }),
  });
}
