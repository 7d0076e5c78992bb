import { formatStatus } from '@/lib/format';
import { useStatusTypes } from '../api/get-status-types';
import type { ListColumn } from './admin-list-card';
import type { PendingAdminAction } from './confirm-action-dialog';
import { runAdminAction } from './run-admin-action';
import { statusColumn } from './list-columns';
import { StatusSelect, type StatusOption } from './status-select';

/** The built-in statuses as a status select offers them. */
export const statusOptions = (statuses: readonly string[]): StatusOption[] =>
  statuses.map((status) => ({ value: status, label: formatStatus(status) }));

/**
 * A list whose rows' status an admin sets (withdraw requests, transactions): the status column with a select
 * of the built-in statuses and the admins' status types, and `apply`, which changes a status at once or,
 * when the change moves money or is final, asks first through `confirm`.
 */
export function useStatusChanges<Item extends { status: string }>({
  palette,
  builtIn,
  label,
  fixed = () => false,
  withheld = () => [],
  note = () => undefined,
  busy,
  change,
  confirmation,
  successMessage,
  confirm,
}: {
  palette: 'request' | 'transaction';
  builtIn: readonly StatusOption[];
  /** The select's accessible name, e.g. 'Status of Jane Doe's deposit of $10.00'. */
  label: (item: Item) => string;
  /** A status no admin may change any more (a decided request). */
  fixed?: (item: Item) => boolean;
  /** Statuses the row may not be given now (approved, while the money gate holds it). */
  withheld?: (item: Item) => readonly string[];
  /** Said under the select: why a status is withheld (a lock, a wait for a second admin). */
  note?: (item: Item) => string | undefined;
  /** A change is under way. */
  busy: boolean;
  /** `reason`: a rejection's, as the admin wrote it in the confirmation. */
  change: (item: Item, status: string, reason?: string) => Promise<unknown>;
  /** What to confirm before the change, or nothing when it may run at once. */
  confirmation: (
    item: Item,
    status: string,
    run: (reason?: string) => Promise<unknown>,
  ) => PendingAdminAction | undefined;
  successMessage: string;
  confirm: (action: PendingAdminAction) => void;
}) {
  const statusTypes = useStatusTypes();
  const statusTypeNames = statusTypes.data?.map((statusType) => statusType.name) ?? [];

  const apply = (item: Item, status: string) => {
    const run = (reason?: string) => change(item, status, reason);
    const action = confirmation(item, status, run);
    if (action) confirm(action);
    else void runAdminAction({ run, successMessage });
  };

  const column: ListColumn<Item> = statusColumn({
    palette,
    shown: (item) => item.status,
    control: (item) => {
      const said = note(item);
      return (
        <>
          <StatusSelect
            label={label(item)}
            value={item.status}
            builtIn={builtIn.filter((option) => !withheld(item).includes(option.value))}
            statusTypes={statusTypeNames}
            disabled={busy || fixed(item)}
            onApply={(status) => apply(item, status)}
          />
          {said && (
            <p data-testid="status-note" className="text-muted-foreground max-w-xs text-xs whitespace-normal">
              {said}
            </p>
          )}
        </>
      );
    },
  });

  return { statusTypes, statusTypeNames, column, apply };
}
