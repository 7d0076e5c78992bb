import { ReceiptTextIcon } from 'lucide-react';
import type { ComponentProps } from 'react';
import { DateTime } from '@/components/date-time';
import { SkeletonRows } from '@/components/query-state';
import { ShowOlderButton } from '@/components/show-older-button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { StatusBadge } from '@/components/ui/status-badge';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { coinName } from '@domain/coins.ts';
import { formatStatus, formatUsd } from '@/lib/format';
import type { WalletTransaction } from '../types';
import { ErrorMessage } from '@/components/error-message';

const SKELETON_ROWS = 3;

function describeType(
  { type, cryptocurrency }: WalletTransaction,
  coinNames: ReadonlyMap<string, string>,
): string {
  const label = formatStatus(type);
  return cryptocurrency ? `${label} (${coinName(cryptocurrency, coinNames)})` : label;
}

/**
 * The user's own transactions, newest first, a page at a time (`older` loads the next); completed ones
 * green, all others yellow.
 */
export function RecentTransactions({
  transactions,
  coinNames,
  isLoading,
  isError,
  older,
  className,
}: {
  transactions: readonly WalletTransaction[] | undefined;
  /** The loaded coins' names by id, so a buy reads 'Buy (Bitcoin)'. */
  coinNames: ReadonlyMap<string, string>;
  isLoading: boolean;
  isError: boolean;
  older?: Omit<ComponentProps<typeof ShowOlderButton>, 'label'>;
  className?: string;
}) {
  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle>Recent Transactions</CardTitle>
      </CardHeader>
      <CardContent>
        {isError ? (
          <ErrorMessage>Failed to fetch transactions</ErrorMessage>
        ) : !isLoading && transactions?.length === 0 ? (
          <div className="text-muted-foreground flex flex-col items-center gap-2 py-8 text-center text-sm">
            <ReceiptTextIcon className="size-6" aria-hidden />
            <p>No transactions yet.</p>
          </div>
        ) : (
          <Table aria-label="Recent Transactions">
            <TableHeader>
              <TableRow>
                <TableHead>Type</TableHead>
                <TableHead align="right">Amount</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Date</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {isLoading || !transactions ? (
                <SkeletonRows rows={SKELETON_ROWS} columns={4} />
              ) : (
                transactions.map((transaction) => (
                  <TableRow key={transaction.id}>
                    <TableCell>{describeType(transaction, coinNames)}</TableCell>
                    <TableCell className="text-right tabular-nums">{formatUsd(transaction.amount)}</TableCell>
                    <TableCell>
                      <StatusBadge status={transaction.status} palette="transaction" />
                    </TableCell>
                    <TableCell>
                      <DateTime value={transaction.date} />
                    </TableCell>
                  </TableRow>
                ))
              )}
            </TableBody>
          </Table>
        )}
        {older && !isError && <ShowOlderButton label="Show older transactions" {...older} />}
      </CardContent>
    </Card>
  );
}
