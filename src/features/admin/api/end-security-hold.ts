import { useMutation } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import {
  writeFailureMessage,
  NOT_ON_HOLD_MESSAGE,
  NO_SUCH_PERSON_MESSAGE,
  END_HOLD_FAILED_MESSAGE,
} from './admin-messages';

/**
 * Ends a person's withdrawal hold early (`end_security_hold`, audited), after support has made sure the
 * security change was theirs. The person is named by their e-mail address, as they write to support.
 */
export async function endSecurityHold(email: string): Promise<void> {
  const person = await supabase.from('profiles').select('id').eq('email', email.toLowerCase()).maybeSingle();
  if (person.error) throw new Error(END_HOLD_FAILED_MESSAGE, { cause: person.error });
  if (!person.data) throw new Error(NO_SUCH_PERSON_MESSAGE);
  const { error } = await supabase.rpc('end_security_hold', { user_id: person.data.id });
  if (error) {
    throw new Error(writeFailureMessage(error, END_HOLD_FAILED_MESSAGE, [NOT_ON_HOLD_MESSAGE]), {
      cause: error,
    });
  }
}

export function useEndSecurityHold() {
  return useMutation({ mutationFn: endSecurityHold });
}
