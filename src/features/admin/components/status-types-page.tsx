import { zodResolver } from '@hookform/resolvers/zod';
import { Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { StatusBadge } from '@/components/ui/status-badge';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { STATUS_TYPE_CREATED_MESSAGE, STATUS_TYPE_DELETED_MESSAGE } from '../api/admin-messages';
import { useCreateStatusType } from '../api/create-status-type';
import { useDeleteStatusType } from '../api/delete-status-type';
import { useStatusTypes, type StatusType } from '../api/get-status-types';
import { QueryRows } from '@/components/query-state';
import { ConfirmDialog } from './confirm-dialog';

/** The database's limit on a status type's name (`status_types_name_length`). */
export const STATUS_TYPE_NAME_MAX_LENGTH = 50;

const statusTypeFormSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Status type name is required')
    .max(STATUS_TYPE_NAME_MAX_LENGTH, `A status type has at most ${STATUS_TYPE_NAME_MAX_LENGTH} characters`),
});
type StatusTypeFormValues = z.infer<typeof statusTypeFormSchema>;

const COLUMNS = 2;

/**
 * /admin/status-types: the statuses admins add to the built-in ones, created here (the field says its limit as
 * it fills, since the browser stops typing at it) and deleted after a confirmation naming the status type.
 */
export function StatusTypesPage() {
  const statusTypes = useStatusTypes();
  const creation = useCreateStatusType();
  const deletion = useDeleteStatusType();
  const [deleting, setDeleting] = useState<StatusType>();
  const {
    register,
    handleSubmit,
    reset,
    control,
    formState: { errors, isSubmitting },
  } = useForm<StatusTypeFormValues>({
    resolver: zodResolver(statusTypeFormSchema),
    defaultValues: { name: '' },
  });

  const submit = handleSubmit(async ({ name }) => {
    try {
      await creation.mutateAsync(name);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error));
      return;
    }
    toast.success(STATUS_TYPE_CREATED_MESSAGE);
    reset();
  });

  const remove = (statusType: StatusType) =>
    deletion.mutate(statusType.id, {
      onSuccess: () => {
        toast.success(STATUS_TYPE_DELETED_MESSAGE);
        setDeleting(undefined);
      },
      onError: (error) => toast.error(error.message),
    });
  const charactersLeft = STATUS_TYPE_NAME_MAX_LENGTH - useWatch({ control, name: 'name' }).length;

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,20rem)_minmax(0,1fr)] lg:items-start">
      <Card>
        <CardHeader>
          <CardTitle>New status type</CardTitle>
        </CardHeader>
        <CardContent>
          <form onSubmit={submit} noValidate className="grid gap-4">
            <FormField
              label="Name"
              hint={`At most ${STATUS_TYPE_NAME_MAX_LENGTH} characters (${charactersLeft} left)`}
              error={errors.name?.message}
            >
              {(control) => (
                <Input
                  {...control}
                  {...register('name')}
                  maxLength={STATUS_TYPE_NAME_MAX_LENGTH}
                  placeholder="e.g. on hold"
                />
              )}
            </FormField>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? 'Adding…' : 'Add status type'}
            </Button>
          </form>
        </CardContent>
      </Card>
      <Card>
        <CardContent className="pt-6">
          <Table aria-busy={statusTypes.isFetching}>
            <TableHeader>
              <TableRow>
                <TableHead>Status type</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              <QueryRows
                columns={COLUMNS}
                queries={[statusTypes]}
                rows={statusTypes.data}
                emptyMessage="No status types yet."
              >
                {(statusType) => (
                  <TableRow key={statusType.id} data-testid="status-type-row">
                    <TableCell>
                      <StatusBadge status={statusType.name} palette="request" />
                    </TableCell>
                    <TableCell className="text-right">
                      <Button
                        variant="ghost"
                        size="sm"
                        className="text-destructive"
                        aria-label={`Delete status type ${statusType.name}`}
                        disabled={deletion.isPending}
                        onClick={() => setDeleting(statusType)}
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
        </CardContent>
      </Card>
      <ConfirmDialog
        alert
        destructive
        open={deleting !== undefined}
        title={`Delete status type "${deleting?.name}"?`}
        description="It is no longer offered in the status dropdowns; rows that carry it keep it."
        confirmLabel="Delete status type"
        pendingLabel="Deleting…"
        isPending={deletion.isPending}
        onConfirm={() => deleting && remove(deleting)}
        onClose={() => setDeleting(undefined)}
      />
    </div>
  );
}
