import { supabase } from '@/lib/supabase';
import { ACCOUNT_FROZEN_PASSWORD_MESSAGE } from './auth-messages';

export class AccountFrozenError extends Error {
  constructor() {
    super(ACCOUNT_FROZEN_PASSWORD_MESSAGE);
    this.name = 'AccountFrozenError';
  }
}

/**
 * A frozen account's password does not change: a trigger on `auth.users` refuses it, and Auth, as hosted
 * GoTrue does for any database error, answers only its generic failure. So the app asks the database first
 * (the person reads their own freeze) and says so plainly; the trigger still decides.
 */
export async function assertNotFrozen(): Promise<void> {
  const { data } = await supabase.from('account_freezes').select('frozen_at, unfreeze_at').maybeSingle();
  if (data?.frozen_at && (data.unfreeze_at === null || Date.parse(data.unfreeze_at) > Date.now())) {
    throw new AccountFrozenError();
  }
}
