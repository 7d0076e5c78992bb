import { ShieldOffIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { TableCell } from '@/components/ui/table';
import { csvUtcTime } from '@/lib/csv';
import { formatDate, formatStatus, formatUsd, formatUsdPlain } from '@/lib/format';
import { users, type AdminUser } from '../api/get-users';
import { DeleteUserDialog } from './delete-user-dialog';
import type { LedgerKind } from './ledger-page';
import { numberColumn } from './list-columns';
import { STICKY_ACTIONS } from './list-table';
import { RemoveTwoFactorDialog } from './remove-two-factor-dialog';
import { SecurityStates } from './security-states';

/**
 * /admin/users: everyone with role, available balance and security state (two-factor authentication, a
 * withdrawal hold or lock, a freeze); search by name or e-mail; remove the two-factor authentication of a
 * person who lost their phone; delete a person. Long names and e-mails are cut short, whole on hover.
 */
export const usersLedger: LedgerKind<AdminUser> = {
  label: 'Users',
  rowTestId: 'admin-user-row',
  emptyMessage: 'No users found.',
  list: users,
  dateRange: false,
  csv: {
    name: 'users',
    columns: [
      { header: 'Name', value: (user) => user.fullName },
      { header: 'E-mail', value: (user) => user.email },
      { header: 'Role', value: (user) => user.role },
      { header: 'Available balance (USD)', value: (user) => formatUsdPlain(user.available) },
      { header: 'Registered (UTC)', value: (user) => csvUtcTime(user.registrationDate) },
      { header: 'Two-factor authentication', value: (user) => (user.twoFactor ? 'yes' : 'no') },
      {
        header: 'Withdrawals held until (UTC)',
        value: (user) => (user.holdUntil ? csvUtcTime(user.holdUntil) : ''),
      },
      { header: 'Withdrawals locked', value: (user) => (user.withdrawalsLocked ? 'yes' : 'no') },
      { header: 'Frozen', value: (user) => (user.frozen ? 'yes' : 'no') },
      { header: 'User ID', value: (user) => user.id },
    ],
  },
  useView: function useUsersLedger() {
    const [userToDelete, setUserToDelete] = useState<AdminUser>();
    const [userToRecover, setUserToRecover] = useState<AdminUser>();
    return {
      columns: [
        {
          header: 'Name',
          sort: 'full_name',
          cell: (user) => (
            <TableCell className="font-medium">
              <span className="block max-w-40 truncate" title={user.fullName}>
                {user.fullName || '—'}
              </span>
            </TableCell>
          ),
        },
        {
          header: 'E-mail',
          sort: 'email',
          cell: (user) => (
            <TableCell>
              <span className="block max-w-44 truncate" title={user.email}>
                {user.email}
              </span>
            </TableCell>
          ),
        },
        { header: 'Role', sort: 'role', cell: (user) => <TableCell>{formatStatus(user.role)}</TableCell> },
        numberColumn('Available balance', (user) => formatUsd(user.available)),
        {
          header: 'Registered',
          sort: 'registration_date',
          cell: (user) => <TableCell>{formatDate(user.registrationDate)}</TableCell>,
        },
        {
          header: 'Security',
          cell: (user) => (
            <TableCell>
              <SecurityStates user={user} />
            </TableCell>
          ),
        },
        {
          header: 'Actions',
          actions: true,
          hiddenHeader: true,
          cell: (user) => (
            <TableCell className={STICKY_ACTIONS}>
              {/* Stacked up to wide screens, as a queue's actions: the list fits 1366 px. */}
              <div className="flex flex-col items-end gap-1 2xl:flex-row 2xl:justify-end">
                {/* Offered only to people who have it. */}
                {user.twoFactor && (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Remove two-factor authentication of ${user.fullName || user.email}`}
                    onClick={() => setUserToRecover(user)}
                  >
                    <ShieldOffIcon aria-hidden />
                    2FA
                  </Button>
                )}
                <Button
                  variant="ghost"
                  size="sm"
                  className="text-destructive"
                  aria-label={`Delete ${user.fullName || user.email}`}
                  onClick={() => setUserToDelete(user)}
                >
                  <Trash2Icon aria-hidden />
                  Delete
                </Button>
              </div>
            </TableCell>
          ),
        },
      ],
      dialogs: (
        <>
          <DeleteUserDialog user={userToDelete} onClose={() => setUserToDelete(undefined)} />
          <RemoveTwoFactorDialog user={userToRecover} onClose={() => setUserToRecover(undefined)} />
        </>
      ),
    };
  },
};
