import type { UseQueryResult } from '@tanstack/react-query';
import { Fragment, type ReactNode } from 'react';
import { QueryRows } from '@/components/query-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { TableBody, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { NO_MATCHES_MESSAGE } from '../api/admin-messages';
import { isNarrowed } from '../api/list-state';
import type { Page } from '../api/paging';
import type { ListUrlState } from '../hooks/use-list-url-state';
import { useNewRowsHeld } from '../hooks/use-new-rows-held';
import { ListPager } from './list-pager';
import { ListTable, SortableHead, STICKY_ACTIONS } from './list-table';
import { ListToolbar, type ChoiceFilter, type CsvExport } from './list-toolbar';

/** One column of an admin list: its header and, for each row, its cell. */
export interface ListColumn<Item> {
  header: string;
  /** The view column a click on the header sorts by; without it the header is plain text. */
  sort?: string;
  align?: 'right';
  /** A row's actions: kept in view at the right while the table scrolls. */
  actions?: boolean;
  /** Named for screen readers only (a column whose buttons say what they do). */
  hiddenHeader?: boolean;
  /** The row's `TableCell` for this column. */
  cell: (item: Item) => ReactNode;
}

/**
 * An admin list on its card: the toolbar (search, filters, CSV export), the table with a header per column,
 * one row per item of the page (a placeholder while it loads, the failure or the empty text), and the pager.
 * Everything it shows comes from the list's state in the address and its query.
 */
export function AdminListCard<Item extends { id: string }>({
  label,
  list,
  items,
  alsoWaitFor = [],
  choices,
  dateRange,
  personOf,
  csv,
  columns,
  rowTestId,
  emptyMessage,
  holdNewRows = false,
  children,
}: {
  /** The table's and pager's accessible name, e.g. 'Buy requests'. */
  label: string;
  list: ListUrlState;
  items: UseQueryResult<Page<Item>>;
  /** Other queries the rows need (the status types a row's select offers). */
  alsoWaitFor?: readonly UseQueryResult<unknown>[];
  choices?: readonly ChoiceFilter[];
  dateRange?: boolean;
  /** Whose rows a row is: the person filter's button names them. */
  personOf?: (item: Item) => string;
  csv: CsvExport<Item>;
  columns: readonly ListColumn<Item>[];
  rowTestId: string;
  /** What the list says when it has no rows and nothing narrows it. */
  emptyMessage: string;
  /** A live queue: rows that arrive while the pointer is over the table wait behind an "N new" button. */
  holdNewRows?: boolean;
  /** Dialogs the rows open. */
  children?: ReactNode;
}) {
  const { state, setSort } = list;
  const queries = [items, ...alsoWaitFor];
  const firstRow = items.data?.rows[0];
  const rows = useNewRowsHeld(items.data?.rows, JSON.stringify(state), !items.isPlaceholderData);
  return (
    <Card>
      <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-4 pt-6">
        <ListToolbar
          list={list}
          choices={choices}
          dateRange={dateRange}
          personName={firstRow && personOf?.(firstRow)}
          csv={csv}
        />
        <div
          onPointerEnter={holdNewRows ? rows.hold : undefined}
          onPointerLeave={holdNewRows ? rows.release : undefined}
        >
          {holdNewRows && (
            // A strip of its own, kept while empty: the button covers no row or header, and neither its
            // coming nor its going moves the table under the pointer.
            <div className="mb-2 flex h-10 items-center justify-center sm:h-8">
              {rows.held > 0 && (
                <Button size="sm" onClick={rows.showHeld}>
                  {rows.held} new
                </Button>
              )}
            </div>
          )}
          <ListTable label={label} busy={queries.some((query) => query.isFetching)}>
            <TableHeader>
              <TableRow>
                {columns.map(({ header, sort, align, actions, hiddenHeader }) =>
                  sort ? (
                    <SortableHead key={header} column={sort} sort={state.sort} onSort={setSort} align={align}>
                      {header}
                    </SortableHead>
                  ) : (
                    <TableHead key={header} align={align} className={actions ? STICKY_ACTIONS : undefined}>
                      {hiddenHeader ? <span className="sr-only">{header}</span> : header}
                    </TableHead>
                  ),
                )}
              </TableRow>
            </TableHeader>
            <TableBody>
              <QueryRows
                columns={columns.length}
                queries={queries}
                rows={rows.rows}
                emptyMessage={isNarrowed(state) ? NO_MATCHES_MESSAGE : emptyMessage}
              >
                {(item) => (
                  <TableRow key={item.id} data-testid={rowTestId}>
                    {columns.map((column) => (
                      <Fragment key={column.header}>{column.cell(item)}</Fragment>
                    ))}
                  </TableRow>
                )}
              </QueryRows>
            </TableBody>
          </ListTable>
        </div>
        <ListPager label={label} data={items.data} held={rows.held} list={list} />
      </CardContent>
      {children}
    </Card>
  );
}
