import { useMutation } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';

export const INVALID_CANCEL_LINK_MESSAGE = 'This link is invalid or has expired';
export const CANCEL_FAILED_MESSAGE =
  'The destination could not be cancelled. Please try again, or contact support.';

/** The one-click cancel link of a new destination's e-mail, signed in or not; answers the destination's label. */
export async function cancelDestination(token: string): Promise<string> {
  const { data, error } = await supabase.rpc('cancel_payout_destination', { token });
  if (error)
    throw new Error(error.message === INVALID_CANCEL_LINK_MESSAGE ? error.message : CANCEL_FAILED_MESSAGE);
  return data;
}

export function useCancelDestination() {
  return useMutation({ mutationFn: cancelDestination });
}
