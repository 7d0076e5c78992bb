import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { CsvColumn } from '@/lib/csv';
import type { AdminList } from '../api/list-query';
import type { QueueTable } from '../hooks/use-admin-queue-realtime';
import type { ListUrlState } from '../hooks/use-list-url-state';
import type { ListColumn } from './admin-list-card';
import type { PendingAdminAction } from './confirm-action-dialog';
import { statusColumn } from './list-columns';
import type { ChoiceFilter } from './list-toolbar';

/** What every queue's request has. */
export interface QueueRequest {
  id: string;
  userId: string;
  userName: string;
  email: string;
  available: number;
  status: string;
  date: string;
  /** Pending past its expiry (price protection): it can only be rejected. */
  expired?: boolean;
}

/**
 * Where a request stands in its queue, which decides what its row offers: `open` Approve and Reject,
 * `expired` Reject alone, `decided` nothing. A new state (a request held, or one awaiting a second admin)
 * is a new member here and a new case in `QueueRowActions`.
 */
export type QueueRowState = 'open' | 'expired' | 'decided';

export function queueRowState(request: QueueRequest): QueueRowState {
  if (request.status !== 'pending') return 'decided';
  return request.expired ? 'expired' : 'open';
}

export type Decision = 'approve' | 'reject';

/** What a queue's kind adds to the queue while it is on screen (its hook may hold state and mutations). */
export interface QueueView<Item> {
  choices: readonly ChoiceFilter[];
  /** The kind's columns between the person and the status. */
  columns: readonly ListColumn<Item>[];
  /** The status column, when the kind's differs from the badge alone. */
  statusColumn?: ListColumn<Item>;
  /** Asks to approve or reject: opens the confirmation. */
  decide: (request: Item, decision: Decision) => void;
  /** A decision is under way: the buttons wait. */
  deciding: boolean;
  /** Whose request, for the buttons' accessible names: 'Jane Doe's request of $100.00'. */
  subject: (request: Item) => string;
  /** The row's actions after Approve and Reject (the withdrawal's details). */
  moreActions?: (request: Item) => ReactNode;
  alsoWaitFor?: readonly UseQueryResult<unknown>[];
  /** Dialogs the kind's actions open. */
  dialogs?: ReactNode;
}

/** One queue (buy, sell, withdraw): its list, its live table and what its rows show and decide. */
export interface QueueKind<Item extends QueueRequest> {
  /** The table's and pager's name, e.g. 'Buy requests'. */
  label: string;
  rowTestId: string;
  emptyMessage: string;
  /** The table whose changes refresh the queue as they happen. */
  table: QueueTable;
  list: AdminList<Item>;
  csv: { name: string; columns: readonly CsvColumn<Item>[] };
  useView: (context: {
    list: ListUrlState;
    confirm: (action: PendingAdminAction) => void;
  }) => QueueView<Item>;
}

/** The request's status; a pending request past its expiry reads 'Expired'. */
export const requestStatusColumn = <Item extends QueueRequest>(): ListColumn<Item> =>
  statusColumn({
    palette: 'request',
    shown: (request) => (queueRowState(request) === 'expired' ? 'expired' : request.status),
  });

/**
 * The confirmation of a decision on a request, e.g. 'Approve buy request': naming its person and their
 * balance now, with the decision as the button (Reject shown as destructive).
 */
export function decisionConfirmation(
  request: QueueRequest,
  decision: Decision,
  what: string,
  rest: Pick<PendingAdminAction, 'details' | 'amount' | 'consequence' | 'successMessage' | 'run'>,
): PendingAdminAction {
  const verb = decision === 'approve' ? 'Approve' : 'Reject';
  return {
    title: `${verb} ${what}`,
    person: { name: request.userName, email: request.email },
    available: request.available,
    confirmLabel: verb,
    destructive: decision === 'reject',
    ...rest,
  };
}
