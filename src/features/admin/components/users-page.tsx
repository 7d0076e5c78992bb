import { ShieldOffIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatStatus, formatUsd } from '@/lib/format';
import { usersList, usersQueries, type AdminUser } from '../api/get-users';
import { NO_MATCHES_MESSAGE } from '../api/admin-messages';
import { isNarrowed } from '../api/list-state';
import { useListUrlState } from '../hooks/use-list-url-state';
import { csvAmount, csvUtcTime, type CsvColumn } from '@/lib/csv';
import { DeleteUserDialog } from './delete-user-dialog';
import { ListPager } from './list-pager';
import { ListTable, SortableHead, STICKY_ACTIONS } from './list-table';
import { ListToolbar } from './list-toolbar';
import { RemoveTwoFactorDialog } from './remove-two-factor-dialog';
import { QueryRows } from '@/components/query-state';

const COLUMNS = 6;

const csvColumns: CsvColumn<AdminUser>[] = [
  { header: 'Name', value: (user) => user.fullName },
  { header: 'E-mail', value: (user) => user.email },
  { header: 'Role', value: (user) => user.role },
  { header: 'Available balance (USD)', value: (user) => csvAmount(user.available) },
  { header: 'Registered (UTC)', value: (user) => csvUtcTime(user.registrationDate) },
  { header: 'User ID', value: (user) => user.id },
];

/**
 * /admin/users: everyone with role and available balance; search by name or e-mail; remove the two-factor
 * authentication of a person who lost their phone; delete a person.
 */
export function UsersPage() {
  const list = useListUrlState(usersList);
  const { state, setSort } = list;
  const [userToDelete, setUserToDelete] = useState<AdminUser>();
  const [userToRecover, setUserToRecover] = useState<AdminUser>();
  const users = usersQueries.useList(state);

  return (
    <Card>
      <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-4 pt-6">
        <ListToolbar
          list={list}
          dateRange={false}
          csv={{ list: 'users', columns: csvColumns, readAll: () => usersQueries.getAll(state) }}
        />
        <ListTable label="Users" busy={users.isFetching}>
          <TableHeader>
            <TableRow>
              <SortableHead column="full_name" sort={state.sort} onSort={setSort}>
                Name
              </SortableHead>
              <SortableHead column="email" sort={state.sort} onSort={setSort}>
                E-mail
              </SortableHead>
              <SortableHead column="role" sort={state.sort} onSort={setSort}>
                Role
              </SortableHead>
              <TableHead align="right">Available balance</TableHead>
              <SortableHead column="registration_date" sort={state.sort} onSort={setSort}>
                Registered
              </SortableHead>
              <TableHead className={STICKY_ACTIONS}>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            <QueryRows
              columns={COLUMNS}
              queries={[users]}
              rows={users.data?.rows}
              emptyMessage={isNarrowed(state) ? NO_MATCHES_MESSAGE : 'No users found.'}
            >
              {(user) => (
                <TableRow key={user.id} data-testid="admin-user-row">
                  <TableCell className="font-medium">{user.fullName || '—'}</TableCell>
                  <TableCell>
                    <span className="block max-w-64 truncate" title={user.email}>
                      {user.email}
                    </span>
                  </TableCell>
                  <TableCell>{formatStatus(user.role)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatUsd(user.available)}</TableCell>
                  <TableCell>{new Date(user.registrationDate).toLocaleDateString()}</TableCell>
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
                </TableRow>
              )}
            </QueryRows>
          </TableBody>
        </ListTable>
        <ListPager label="Users" data={users.data} list={list} />
      </CardContent>
      <DeleteUserDialog user={userToDelete} onClose={() => setUserToDelete(undefined)} />
      <RemoveTwoFactorDialog user={userToRecover} onClose={() => setUserToRecover(undefined)} />
    </Card>
  );
}
