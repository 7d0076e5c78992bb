import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PayoutDestination } from '@domain/withdrawal.ts';
import { readFunctionRefusal } from '@/lib/function-refusal';
import { supabase } from '@/lib/supabase';
import { insufficientAalCode, isStepUpRefusal, SecondFactorRequiredError } from '@/lib/step-up';

export const addressBookQueryKey = ['protections', 'address-book'] as const;
export const SAVE_DESTINATION_FAILED_MESSAGE = 'The destination could not be saved. Please try again.';

export interface SavedDestination {
  id: string;
  label: string;
  method: 'bank' | 'card' | 'wallet';
  last4: string;
  createdAt: string;
  usableAt: string;
  /** Whether its waiting period had ended when the book was read. */
  usable: boolean;
}

export interface AddressBook {
  destinations: SavedDestination[];
  allowlistOn: boolean;
  /** When a switch-off the person asked for takes effect; null when none is pending. */
  allowlistOffAt: string | null;
  waitHours: number;
}

/** The person's saved destinations (never removed ones) and their allowlist and wait, as the database says. */
export async function getAddressBook(): Promise<AddressBook> {
  const [destinations, protection, rules] = await Promise.all([
    supabase
      .from('payout_destinations')
      .select('id, label, withdraw_method, last4, created_at, usable_at')
      .is('removed_at', null)
      .order('created_at', { ascending: false }),
    supabase.from('payout_protection').select('allowlist_on, allowlist_off_at').maybeSingle(),
    supabase.rpc('my_payout_rules').single(),
  ]);
  if (destinations.error) throw destinations.error;
  if (protection.error) throw protection.error;
  if (rules.error) throw rules.error;
  return {
    destinations: destinations.data.map((row) => ({
      id: row.id,
      label: row.label,
      method: row.withdraw_method,
      last4: row.last4,
      createdAt: row.created_at,
      usableAt: row.usable_at,
      usable: Date.parse(row.usable_at) <= Date.now(),
    })),
    allowlistOn: protection.data?.allowlist_on ?? false,
    allowlistOffAt: protection.data?.allowlist_off_at ?? null,
    waitHours: rules.data.wait_hours,
  };
}

export function useAddressBook() {
  return useQuery(queryOptions({ queryKey: addressBookQueryKey, queryFn: getAddressBook }));
}

/** Saves a destination through the `payout-destinations` function, which seals it; a code is asked if needed. */
export async function saveDestination(destination: PayoutDestination): Promise<void> {
  const { error } = await supabase.functions.invoke('payout-destinations', { body: destination });
  if (!error) return;
  const refusal = await readFunctionRefusal(error);
  if (refusal?.code === insufficientAalCode) throw new SecondFactorRequiredError(refusal.message);
  throw new Error(refusal?.message || SAVE_DESTINATION_FAILED_MESSAGE, { cause: error });
}

/** The database's refusal as the person reads it; a missing code as the step-up error, so a code is asked. */
export function databaseRefusal(error: { code?: string; message: string }): Error {
  return isStepUpRefusal(error) ? new SecondFactorRequiredError(error.message) : new Error(error.message);
}

/** A change of the address book, then the book read again. */
function useAddressBookChange<Input>(change: (input: Input) => Promise<void>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSettled: () => queryClient.invalidateQueries({ queryKey: addressBookQueryKey }),
  });
}

export const useSaveDestination = () => useAddressBookChange(saveDestination);

export const useRemoveDestination = () =>
  useAddressBookChange(async (destinationId: string) => {
    const { error } = await supabase.rpc('remove_payout_destination', { destination_id: destinationId });
    if (error) throw databaseRefusal(error);
  });

export const useSetAllowlist = () =>
  useAddressBookChange(async (allowlistOn: boolean) => {
    const { error } = await supabase.rpc('set_payout_allowlist', { allowlist_on: allowlistOn });
    if (error) throw databaseRefusal(error);
  });

export const useSetWaitHours = () =>
  useAddressBookChange(async (waitHours: number) => {
    const { error } = await supabase.rpc('set_payout_wait_hours', { wait_hours: waitHours });
    if (error) throw databaseRefusal(error);
  });
