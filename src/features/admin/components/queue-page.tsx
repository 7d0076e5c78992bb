import { useState } from 'react';
import { TableCell } from '@/components/ui/table';
import { useSession } from '@/lib/auth';
import { useAdminQueueRealtime } from '../hooks/use-admin-queue-realtime';
import { useListUrlState } from '../hooks/use-list-url-state';
import { AdminListCard, type ListColumn } from './admin-list-card';
import { ConfirmActionDialog, type PendingAdminAction } from './confirm-action-dialog';
import { DecisionButtons } from './decision-buttons';
import { dateColumn, personColumn } from './list-columns';
import { STICKY_ACTIONS } from './list-table';
import {
  moneySafetyNote,
  queueRowState,
  requestStatusColumn,
  type QueueKind,
  type QueueRequest,
  type QueueView,
} from './queue-kind';

/** A queue row's actions by where the request stands. */
function QueueRowActions<Item extends QueueRequest>({
  request,
  view,
}: {
  request: Item;
  view: QueueView<Item>;
}) {
  const { user } = useSession();
  const state = queueRowState(request, user?.id);
  const note = state === 'decided' ? undefined : moneySafetyNote(request, user?.id);
  return (
    <TableCell className={STICKY_ACTIONS}>
      {note && (
        <p
          data-testid="queue-row-note"
          className="text-muted-foreground mb-2 max-w-xs text-xs whitespace-normal sm:ml-auto"
        >
          {note}
        </p>
      )}
      {/* Stacked up to wide screens, so the column that stays in view leaves room for the rest. */}
      <div className="flex flex-col items-stretch gap-2 2xl:flex-row 2xl:justify-end">
        {state !== 'decided' && (
          <DecisionButtons
            subject={view.subject(request)}
            disabled={view.deciding}
            canApprove={state === 'open'}
            onApprove={() => view.decide(request, 'approve')}
            onReject={() => view.decide(request, 'reject')}
          />
        )}
        {view.moreActions?.(request)}
      </div>
    </TableCell>
  );
}

/**
 * An admin queue: requests waiting for a decision, live (a new request or another admin's decision shows
 * without a reload), filtered and paged in the address, each decision confirmed first.
 */
export function QueuePage<Item extends QueueRequest>({ kind }: { kind: QueueKind<Item> }) {
  const list = useListUrlState(kind.list.definition);
  const requests = kind.list.useList(list.state);
  const [action, setAction] = useState<PendingAdminAction>();
  useAdminQueueRealtime(kind.table, kind.list.keyRoot);
  const view = kind.useView({ list, confirm: setAction });

  const columns: ListColumn<Item>[] = [
    dateColumn(),
    personColumn(list.setFilter),
    ...view.columns,
    view.statusColumn ?? requestStatusColumn(),
    {
      header: 'Actions',
      align: 'right',
      actions: true,
      cell: (request) => <QueueRowActions request={request} view={view} />,
    },
  ];

  return (
    <AdminListCard
      label={kind.label}
      list={list}
      items={requests}
      alsoWaitFor={view.alsoWaitFor}
      choices={view.choices}
      personOf={(request) => request.userName}
      csv={{ list: kind.csv.name, columns: kind.csv.columns, readAll: () => kind.list.getAll(list.state) }}
      columns={columns}
      rowTestId={kind.rowTestId}
      emptyMessage={kind.emptyMessage}
      holdNewRows
    >
      {view.dialogs}
      <ConfirmActionDialog action={action} onClose={() => setAction(undefined)} />
    </AdminListCard>
  );
}
