import { ArrowDownIcon, ArrowUpIcon, ArrowUpDownIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Table, TableHead } from '@/components/ui/table';
import type { ListSort } from '../api/list-state';

/**
 * An admin table: the app's one table, which scrolls sideways in a region of its own (named, reachable by
 * keyboard) when the screen is narrower than its columns; the page itself never does. Cells marked
 * `sticky right-0` (a row's actions) stay in view while the rest scrolls.
 */
export function ListTable({ label, busy, children }: { label: string; busy: boolean; children: ReactNode }) {
  return (
    // Headers wrap between words and cells sit closer than the app's other tables: a queue's decision
    // data fits a 1366 px screen beside the side menu without scrolling sideways.
    <Table aria-busy={busy} aria-label={label} className="[&_td]:px-2 [&_th]:px-2 [&_th]:whitespace-normal">
      {children}
    </Table>
  );
}

/** Classes of a row's actions cell (and its header): kept in view at the right while the table scrolls. */
export const STICKY_ACTIONS = 'bg-card sticky right-0 z-10 border-l';

/** A column header that sorts the list by its column: first click ascending, the next descending. */
export function SortableHead({
  column,
  sort,
  onSort,
  align,
  children,
}: {
  column: string;
  sort: ListSort;
  onSort: (sort: ListSort) => void;
  align?: 'left' | 'right';
  children: ReactNode;
}) {
  const active = sort.column === column;
  const Icon = !active ? ArrowUpDownIcon : sort.ascending ? ArrowUpIcon : ArrowDownIcon;
  return (
    <TableHead align={align} aria-sort={active ? (sort.ascending ? 'ascending' : 'descending') : undefined}>
      <button
        type="button"
        className="hover:text-foreground focus-visible:ring-ring inline-flex items-center gap-1 rounded-sm uppercase focus-visible:ring-2 focus-visible:outline-none"
        onClick={() => onSort({ column, ascending: active ? !sort.ascending : true })}
      >
        {children}
        <Icon aria-hidden className="size-3.5" />
      </button>
    </TableHead>
  );
}
