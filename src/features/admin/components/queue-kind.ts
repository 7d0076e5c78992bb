import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { CsvColumn } from '@/lib/csv';
import type { AdminList, MoneySafety } from '../api/list-query';
import type { QueueTable } from '../hooks/use-admin-queue-realtime';
import type { ListUrlState } from '../hooks/use-list-url-state';
import type { ListColumn } from './admin-list-card';
import type { PendingAdminAction } from './confirm-action-dialog';
import { statusColumn } from './list-columns';
import type { ChoiceFilter } from './list-toolbar';

/** What every queue's request has. */
export interface QueueRequest extends MoneySafety {
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
 * Where a request stands in its queue, for the admin looking at it, which decides what its row offers:
 * `open` Approve and Reject; `expired`, `held` (a lock or a security hold: the money gate refuses its
 * approval) and `awaiting-second-admin` (this admin approved it above the four-eyes threshold) Reject alone;
 * `decided` nothing. A request another admin proposed is `open`: this admin's Approve confirms it.
 */
export type QueueRowState = 'open' | 'expired' | MoneySafetyState | 'decided';

export function queueRowState(request: QueueRequest, adminId: string | undefined): QueueRowState {
  if (request.status !== 'pending') return 'decided';
  if (request.expired) return 'expired';
  return moneySafetyState(request, adminId);
}

/**
 * What the money-safety columns leave this admin of an open row (a request, a transaction not yet complete):
 * `held` when the money gate refuses it now, `awaiting-second-admin` when this admin's approval waits for
 * another's, `open` otherwise (another admin's proposal included: this admin confirms it).
 */
export type MoneySafetyState = 'held' | 'awaiting-second-admin' | 'open';

export function moneySafetyState(item: MoneySafety, adminId: string | undefined): MoneySafetyState {
  if (item.heldBecause) return 'held';
  return item.proposedBy !== null && item.proposedBy === adminId ? 'awaiting-second-admin' : 'open';
}

/** What an open row says: why it cannot be approved now, or that it waits for a second admin. */
export function moneySafetyNote(item: MoneySafety, adminId: string | undefined): string | undefined {
  if (item.heldBecause) return item.heldBecause;
  if (item.proposedBy === null) return undefined;
  return item.proposedBy === adminId
    ? 'Awaiting a second admin: you approved it'
    : 'Awaiting a second admin: another admin approved it';
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
    shown: (request) => (request.status === 'pending' && request.expired ? 'expired' : request.status),
  });

/**
 * The confirmation of a decision on a request, e.g. 'Approve buy request': naming its person and their
 * balance now, with the decision as the button (Reject shown as destructive).
 */
export function decisionConfirmation(
  request: QueueRequest,
  decision: Decision,
  what: string,
  rest: Pick<
    PendingAdminAction,
    'details' | 'amount' | 'consequence' | 'successMessage' | 'run' | 'asksReason'
  >,
): PendingAdminAction {
  const verb = decision === 'approve' ? 'Approve' : 'Reject';
  return {
    asksReason: decision === 'reject',
    title: `${verb} ${what}`,
    person: { name: request.userName, email: request.email },
    available: request.available,
    confirmLabel: verb,
    destructive: decision === 'reject',
    ...rest,
  };
}
