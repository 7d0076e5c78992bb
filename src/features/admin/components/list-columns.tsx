import type { ReactNode } from 'react';
import { coinName } from '@domain/coins.ts';
import { StatusBadge } from '@/components/ui/status-badge';
import { TableCell } from '@/components/ui/table';
import { formatUsd } from '@/lib/format';
import type { ListFilterName } from '../api/list-state';
import type { ListColumn } from './admin-list-card';
import { DateTimeCell } from './date-time-cell';
import { PersonCell } from './person-cell';

/** The columns the lists of people's requests and transactions share. */
interface PersonRow {
  date: string;
  userId: string;
  userName: string;
  email: string;
  available: number;
}

const NUMBER = 'text-right tabular-nums';

/** When the row was made, sorted by its date. */
export const dateColumn = <Item extends { date: string }>(): ListColumn<Item> => ({
  header: 'Date',
  sort: 'date',
  cell: (item) => <DateTimeCell value={item.date} />,
});

/** Whose row it is, with a button that narrows the list to that person. */
export const personColumn = <Item extends PersonRow>(
  setFilter: (name: ListFilterName, value: string) => void,
): ListColumn<Item> => ({
  header: 'User',
  cell: (item) => (
    <PersonCell
      name={item.userName}
      email={item.email}
      onOnlyThisPerson={() => setFilter('user', item.userId)}
    />
  ),
});

/** The cryptocurrency by name, sorted by its code (headed "Coin": a short header leaves room for the figures). */
export const coinColumn = <Item extends { cryptocurrency: string }>(): ListColumn<Item> => ({
  header: 'Coin',
  sort: 'cryptocurrency',
  cell: (item) => <TableCell>{coinName(item.cryptocurrency)}</TableCell>,
});

/** A right-aligned figure: an amount in USD, a quantity of coins. */
export const numberColumn = <Item,>(
  header: string,
  text: (item: Item) => string,
  { sort, muted = false }: { sort?: string; muted?: boolean } = {},
): ListColumn<Item> => ({
  header,
  sort,
  align: 'right',
  cell: (item) => (
    <TableCell className={muted ? `text-muted-foreground ${NUMBER}` : NUMBER}>{text(item)}</TableCell>
  ),
});

/** The person's available balance now, beside what the row would take from or add to it. */
export const availableColumn = <Item extends PersonRow>(): ListColumn<Item> =>
  numberColumn('Available balance', (item) => formatUsd(item.available), { muted: true });

/** The row's status as a badge, sorted by status, with what may change it (a status select) under it. */
export const statusColumn = <Item,>({
  palette,
  shown,
  control,
}: {
  palette: 'request' | 'transaction';
  shown: (item: Item) => string;
  control?: (item: Item) => ReactNode;
}): ListColumn<Item> => ({
  header: 'Status',
  sort: 'status',
  cell: (item) => (
    <TableCell>
      {control ? (
        <div className="grid justify-items-start gap-1.5">
          <StatusBadge status={shown(item)} palette={palette} />
          {control(item)}
        </div>
      ) : (
        <StatusBadge status={shown(item)} palette={palette} />
      )}
    </TableCell>
  ),
});
