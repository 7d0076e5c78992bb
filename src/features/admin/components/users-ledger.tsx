import { ShieldOffIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { TableCell } from '@/components/ui/table';
import { csvUtcTime } from '@/lib/csv';
import { formatStatus, formatUsd, formatUsdPlain } from '@/lib/format';
import { users, type AdminUser } from '../api/get-users';
import { DeleteUserDialog } from './delete-user-dialog';
import type { LedgerKind } from './ledger-page';
import { numberColumn } from './list-columns';
import { STICKY_ACTIONS } from './list-table';
import { RemoveTwoFactorDialog } from './remove-two-factor-dialog';

/**
 * /admin/users: everyone with role and available balance; search by name or e-mail; remove the two-factor
 * authentication of a person who lost their phone; delete a person.
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
          cell: (user) => <TableCell className="font-medium">{user.fullName || '—'}</TableCell>,
        },
        {
          header: 'E-mail',
          sort: 'email',
          cell: (user) => (
            <TableCell>
              <span className="block max-w-64 truncate" title={user.email}>
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
          cell: (user) => <TableCell>{new Date(user.registrationDate).toLocaleDateString()}</TableCell>,
        },
        {
          header: 'Actions',
          actions: true,
          hiddenHeader: true,
          cell: (user) => (
            <TableCell className={`${STICKY_ACTIONS} text-right`}>
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Remove two-factor authentication of ${user.fullName || user.email}`}
                onClick={() => setUserToRecover(user)}
              >
                <ShieldOffIcon aria-hidden />
                2FA
              </Button>
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
