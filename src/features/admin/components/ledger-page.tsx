import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { CsvColumn } from '@/lib/csv';
import type { AdminList } from '../api/list-query';
import { useListUrlState, type ListUrlState } from '../hooks/use-list-url-state';
import { AdminListCard, type ListColumn } from './admin-list-card';
import type { ChoiceFilter } from './list-toolbar';

/** What a ledger list's kind shows while it is on screen (its hook may hold state and mutations). */
export interface LedgerView<Item> {
  choices?: readonly ChoiceFilter[];
  columns: readonly ListColumn<Item>[];
  alsoWaitFor?: readonly UseQueryResult<unknown>[];
  /** Dialogs the rows' actions open. */
  dialogs?: ReactNode;
}

/** One ledger list (transactions, audit log, users): its list, its export and what its rows show. */
export interface LedgerKind<Item extends { id: string }> {
  /** The table's and pager's name, e.g. 'Transactions'. */
  label: string;
  rowTestId: string;
  emptyMessage: string;
  list: AdminList<Item>;
  csv: { name: string; columns: readonly CsvColumn<Item>[] };
  /** Whose rows a row is, for the person filter's button. */
  personOf?: (item: Item) => string;
  /** Whether the list is filtered by a range of days. */
  dateRange?: boolean;
  useView: (list: ListUrlState) => LedgerView<Item>;
}

/** A ledger list: every record of its kind, searched, filtered, sorted and paged in the address. */
export function LedgerPage<Item extends { id: string }>({ kind }: { kind: LedgerKind<Item> }) {
  const list = useListUrlState(kind.list.definition);
  const items = kind.list.useList(list.state);
  const view = kind.useView(list);
  return (
    <AdminListCard
      label={kind.label}
      list={list}
      items={items}
      alsoWaitFor={view.alsoWaitFor}
      choices={view.choices}
      dateRange={kind.dateRange}
      personOf={kind.personOf}
      csv={{ list: kind.csv.name, columns: kind.csv.columns, readAll: () => kind.list.getAll(list.state) }}
      columns={view.columns}
      rowTestId={kind.rowTestId}
      emptyMessage={kind.emptyMessage}
    >
      {view.dialogs}
    </AdminListCard>
  );
}
