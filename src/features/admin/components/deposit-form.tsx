import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { UsdAmountInput } from '@/components/ui/usd-amount-input';
import { DEPOSIT_CREATED_MESSAGE } from '../api/admin-messages';
import { useCreateDeposit } from '../api/create-deposit';
import { users as usersList } from '../api/get-users';
import { useDebouncedValue } from '../hooks/use-debounced-value';
import { ConfirmActionDialog, type PendingAdminAction } from './confirm-action-dialog';
import { depositFormSchema, MINIMUM_DEPOSIT, type DepositFormValues } from './deposit-form-schema';

const SEARCH_DELAY_MS = 300;
/** How many matching people the picker offers; narrowing the search finds anyone else. */
const PICKER_SIZE = 50;

/** /admin/deposit: a pending deposit for a person, found by name or e-mail, confirmed before it is made. */
export function DepositForm() {
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText, SEARCH_DELAY_MS);
  const users = usersList.useList(
    { page: 0, search, sort: usersList.definition.defaultSort, filters: {} },
    PICKER_SIZE,
  );
  const deposit = useCreateDeposit();
  const [action, setAction] = useState<PendingAdminAction>();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<DepositFormValues>({
    resolver: zodResolver(depositFormSchema),
    defaultValues: { userId: '', amount: '' },
  });

  const submit = handleSubmit((values) => {
    const person = users.data?.rows.find((user) => user.id === values.userId);
    const amount = Number(values.amount);
    setAction({
      title: 'Create deposit',
      person: { name: person?.fullName ?? '', email: person?.email ?? '' },
      amount,
      available: person?.available,
      consequence:
        'The deposit starts as pending; the balance grows only when it is marked complete on the Transactions page.',
      confirmLabel: 'Create deposit',
      successMessage: DEPOSIT_CREATED_MESSAGE,
      run: async () => {
        await deposit.mutateAsync({ userId: values.userId, amount });
        reset();
      },
    });
  });

  return (
    <Card className="max-w-xl">
      <CardContent className="pt-6">
        <form onSubmit={submit} noValidate className="grid gap-5">
          <FormField label="Find a user">
            {(control) => (
              <Input
                {...control}
                type="search"
                placeholder="Name or e-mail"
                value={searchText}
                onChange={(event) => setSearchText(event.target.value)}
              />
            )}
          </FormField>
          <FormField label="User" error={errors.userId?.message}>
            {(control) => (
              <NativeSelect {...control} {...register('userId')} aria-busy={users.isFetching}>
                <option value="">Select a user</option>
                {users.data?.rows.map((user) => (
                  <option key={user.id} value={user.id}>
                    {user.fullName ? `${user.fullName} (${user.email})` : user.email}
                  </option>
                ))}
              </NativeSelect>
            )}
          </FormField>
          {users.data && users.data.total > users.data.rows.length && (
            <p className="text-muted-foreground -mt-3 text-xs">
              Showing {users.data.rows.length} of {users.data.total.toLocaleString()} users; type to narrow
              the list.
            </p>
          )}
          <FormField label="Amount (USD)" error={errors.amount?.message}>
            {(control) => (
              <UsdAmountInput {...control} {...register('amount')} min={MINIMUM_DEPOSIT} placeholder="0.00" />
            )}
          </FormField>
          <p className="text-muted-foreground text-sm">
            The deposit starts as pending; mark it complete on the Transactions page to credit the balance.
          </p>
          <Button type="submit" disabled={isSubmitting || deposit.isPending}>
            {deposit.isPending ? 'Creating…' : 'Create deposit'}
          </Button>
        </form>
      </CardContent>
      <ConfirmActionDialog action={action} onClose={() => setAction(undefined)} />
    </Card>
  );
}
