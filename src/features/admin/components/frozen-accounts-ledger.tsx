import { Button } from '@/components/ui/button';
import { TableCell } from '@/components/ui/table';
import { useSession } from '@/lib/auth';
import { csvUtcTime } from '@/lib/csv';
import { liveTopics, useRealtimeInvalidation } from '@/lib/realtime';
import { UNFREEZE_PROPOSED_MESSAGE, UNFROZEN_MESSAGE } from '../api/admin-messages';
import { frozenAccounts, type FrozenAccount } from '../api/get-frozen-accounts';
import { useUnfreezeAccount } from '../api/unfreeze-account';
import { DateTimeCell } from './date-time-cell';
import type { LedgerKind } from './ledger-page';
import { STICKY_ACTIONS } from './list-table';
import { PersonCell } from './person-cell';
import { runAdminAction } from './run-admin-action';

const howFrozen = (account: FrozenAccount) =>
  account.frozenBy === 'not_me_link' ? 'From a "this wasn\'t me" link' : 'By the person';

/**
 * /admin/frozen-accounts: accounts frozen now. Two admins unfreeze together: the first asks, and only another
 * admin confirms (the four-eyes rule; the database refuses the first admin a second call). Live on
 * admin:queues: a freeze, an unfreeze and another admin's asking show without a reload.
 */
export const frozenAccountsLedger: LedgerKind<FrozenAccount> = {
  label: 'Frozen accounts',
  rowTestId: 'frozen-account-row',
  emptyMessage: 'No account is frozen.',
  list: frozenAccounts,
  dateRange: false,
  csv: {
    name: 'frozen-accounts',
    columns: [
      { header: 'Name', value: (account) => account.fullName },
      { header: 'E-mail', value: (account) => account.email },
      { header: 'Frozen (UTC)', value: (account) => csvUtcTime(account.frozenAt) },
      { header: 'How', value: howFrozen },
      {
        header: 'Their unfreeze (UTC)',
        value: (account) => (account.unfreezeAt ? csvUtcTime(account.unfreezeAt) : null),
      },
      { header: 'Unfreeze asked by', value: (account) => account.proposedByName },
      { header: 'User ID', value: (account) => account.id },
    ],
  },
  useView: function useFrozenAccountsLedger() {
    const { user } = useSession();
    const unfreeze = useUnfreezeAccount();
    useRealtimeInvalidation({
      topic: liveTopics.adminQueues,
      tables: ['account_freezes', 'second_approvals'],
      queryKeys: [frozenAccounts.keyRoot],
      readAgainAfterMs: 500,
    });
    const ask = (account: FrozenAccount) =>
      runAdminAction({
        run: () => unfreeze.mutateAsync(account.id),
        successMessage: account.proposedBy ? UNFROZEN_MESSAGE : UNFREEZE_PROPOSED_MESSAGE,
      });
    return {
      columns: [
        {
          header: 'User',
          sort: 'full_name',
          cell: (account) => <PersonCell name={account.fullName} email={account.email} />,
        },
        {
          header: 'Frozen',
          sort: 'frozen_at',
          cell: (account) => <DateTimeCell value={account.frozenAt} />,
        },
        { header: 'How', cell: (account) => <TableCell>{howFrozen(account)}</TableCell> },
        {
          header: 'Their unfreeze',
          cell: (account) =>
            account.unfreezeAt ? <DateTimeCell value={account.unfreezeAt} /> : <TableCell>—</TableCell>,
        },
        {
          header: 'Two admins',
          cell: (account) => (
            <TableCell>
              {account.proposedBy
                ? `${account.proposedBy === user?.id ? 'You' : account.proposedByName || 'An admin'} asked to unfreeze: awaiting a second admin`
                : '—'}
            </TableCell>
          ),
        },
        {
          header: 'Actions',
          actions: true,
          hiddenHeader: true,
          cell: (account) => (
            <TableCell className={`${STICKY_ACTIONS} text-right`}>
              {account.proposedBy !== user?.id && (
                <Button
                  variant="outline"
                  size="sm"
                  disabled={unfreeze.isPending}
                  aria-label={`${account.proposedBy ? 'Confirm unfreezing' : 'Unfreeze'} ${account.fullName || account.email}`}
                  onClick={() => void ask(account)}
                >
                  {account.proposedBy ? 'Confirm unfreeze' : 'Unfreeze'}
                </Button>
              )}
            </TableCell>
          ),
        },
      ],
    };
  },
};
