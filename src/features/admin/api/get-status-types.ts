import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { STATUS_TYPES_FAILED_MESSAGE } from './admin-messages';

export interface StatusType {
  id: string;
  name: string;
}

export const statusTypesQueryKey = ['admin', 'status-types'] as const;

/** The statuses admins added, newest first. A short list that admins curate by hand: read whole. */
export async function getStatusTypes(): Promise<StatusType[]> {
  const { data, error } = await supabase
    .from('status_types')
    .select('id, name')
    .order('created_at', { ascending: false })
    .limit(200);
  if (error) throw new Error(STATUS_TYPES_FAILED_MESSAGE, { cause: error });
  return data;
}

export const statusTypesQueryOptions = queryOptions({
  queryKey: statusTypesQueryKey,
  queryFn: getStatusTypes,
});

export function useStatusTypes() {
  return useQuery(statusTypesQueryOptions);
}
