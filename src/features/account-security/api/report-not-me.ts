import { useMutation } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { INVALID_NOT_ME_LINK_MESSAGE, NOT_ME_FAILED_MESSAGE } from './account-security-messages';

/**
 * The "this wasn't me" link of a security e-mail: locks the person's withdrawals at once (`report_not_me`,
 * audited), signed in or not, since after a takeover the password may no longer be theirs.
 */
export async function reportNotMe(token: string): Promise<void> {
  const { error } = await supabase.rpc('report_not_me', { token });
  if (error)
    throw new Error(error.message === INVALID_NOT_ME_LINK_MESSAGE ? error.message : NOT_ME_FAILED_MESSAGE);
}

export function useReportNotMe() {
  return useMutation({ mutationFn: reportNotMe });
}
