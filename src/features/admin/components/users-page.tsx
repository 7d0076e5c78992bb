import { SearchIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatUsd } from '@/lib/format';
import { useUsers, type AdminUser } from '../api/get-users';
import { useDebouncedValue } from '../hooks/use-debounced-value';
import { DeleteUserDialog } from './delete-user-dialog';
import { Pager } from './pager';
import { QueryRows } from './table-states';

const COLUMNS = 6;
const SEARCH_DELAY_MS = 300;

/** /admin/users: everyone with role and available balance; search by name or e-mail; delete a person. */
export function UsersPage() {
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText, SEARCH_DELAY_MS);
  const [page, setPage] = useState(0);
  const [userToDelete, setUserToDelete] = useState<AdminUser>();
  const users = useUsers({ page, search });

  return (
    <Card>
      <CardContent className="grid gap-4 pt-6">
        <div className="relative max-w-sm">
          <SearchIcon
            className="text-muted-foreground absolute top-1/2 left-3 size-4 -translate-y-1/2"
            aria-hidden
          />
          <Input
            type="search"
            aria-label="Search by name or e-mail"
            placeholder="Search by name or e-mail"
            className="pl-9"
            value={searchText}
            onChange={(event) => {
              setSearchText(event.target.value);
              setPage(0);
            }}
          />
        </div>
        <Table aria-busy={users.isFetching}>
          <TableHeader>
            <TableRow>
              <TableHead>Name</TableHead>
              <TableHead>E-mail</TableHead>
              <TableHead>Role</TableHead>
              <TableHead align="right">Available balance</TableHead>
              <TableHead>Registered</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            <QueryRows
              columns={COLUMNS}
              queries={[users]}
              rows={users.data?.rows}
              emptyMessage="No users found."
            >
              {(user) => (
                <TableRow key={user.id} data-testid="admin-user-row">
                  <TableCell className="font-medium">{user.fullName || '—'}</TableCell>
                  <TableCell>
                    <span className="block max-w-64 truncate" title={user.email}>
                      {user.email}
                    </span>
                  </TableCell>
                  <TableCell className="capitalize">{user.role}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatUsd(user.available)}</TableCell>
                  <TableCell>{new Date(user.registrationDate).toLocaleDateString()}</TableCell>
                  <TableCell className="text-right">
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
        </Table>
        {users.data && <Pager label="Users" page={page} total={users.data.total} onPageChange={setPage} />}
      </CardContent>
      <DeleteUserDialog user={userToDelete} onClose={() => setUserToDelete(undefined)} />
    </Card>
  );
}
