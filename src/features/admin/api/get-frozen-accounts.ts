import { supabase } from '@/lib/supabase';
import { FROZEN_ACCOUNTS_FAILED_MESSAGE } from './admin-messages';
import { adminList } from './list-query';

export interface FrozenAccount {
  /** The person's id. */
  id: string;
  email: string;
  fullName: string;
  frozenAt: string;
  frozenBy: 'person' | 'not_me_link';
  /** When the person's own unfreeze ends its delay; null when they have not asked. */
  unfreezeAt: string | null;
  /** The admin who asked to unfreeze first, awaiting a second admin; null when none has. */
  proposedBy: string | null;
  proposedByName: string | null;
}

/** Accounts frozen now (`frozen_accounts`), newest freeze first, searched by name or e-mail. */
export const frozenAccounts = adminList({
  keyRoot: ['admin', 'frozen-accounts'],
  definition: {
    sortColumns: ['full_name', 'email', 'frozen_at'],
    defaultSort: { column: 'frozen_at', ascending: false },
    filters: {},
  },
  select: (head) =>
    supabase
      .from('frozen_accounts')
      .select('id, email, full_name, frozen_at, frozen_by, unfreeze_at, proposed_by, proposed_by_name', {
        count: 'exact',
        head,
      }),
  columns: { date: 'frozen_at', search: ['full_name', 'email'] },
  toItem: (row): FrozenAccount => ({
    id: row.id ?? '',
    email: row.email ?? '',
    fullName: row.full_name ?? '',
    frozenAt: row.frozen_at ?? '',
    frozenBy: row.frozen_by === 'not_me_link' ? 'not_me_link' : 'person',
    unfreezeAt: row.unfreeze_at,
    proposedBy: row.proposed_by,
    proposedByName: row.proposed_by_name,
  }),
  failedMessage: FROZEN_ACCOUNTS_FAILED_MESSAGE,
});
