import { StatusBadge } from '@/components/ui/status-badge';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatUsd } from '@/lib/format';
import type { BuyRequest } from '../types';

export interface BuyRequestsTableProps {
  requests: readonly BuyRequest[];
  /** Coin names by id, to show 'Bitcoin' rather than 'bitcoin' when the coin is among the loaded ones. */
  coinNames: ReadonlyMap<string, string>;
}

/** 'Your Buy Requests': newest first, as the query orders them. */
export function BuyRequestsTable({ requests, coinNames }: BuyRequestsTableProps) {
  if (requests.length === 0) {
    return <p className="text-muted-foreground py-6 text-center">You have no buy requests at the moment.</p>;
  }
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Date</TableHead>
          <TableHead>Cryptocurrency</TableHead>
          <TableHead align="right">Amount (USD)</TableHead>
          <TableHead>Status</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {requests.map((request) => (
          <TableRow key={request.id} data-testid="buy-request-row">
            <TableCell>
              {/* Date over time keeps the column narrow enough for all four columns on a laptop. */}
              <time dateTime={request.date} className="grid">
                <span>{new Date(request.date).toLocaleDateString()}</span>
                <span className="text-muted-foreground text-xs">
                  {new Date(request.date).toLocaleTimeString()}
                </span>
              </time>
            </TableCell>
            <TableCell>{coinNames.get(request.cryptocurrency) ?? request.cryptocurrency}</TableCell>
            <TableCell className="text-right tabular-nums">{formatUsd(request.amount)}</TableCell>
            <TableCell>
              <StatusBadge status={request.status} palette="buy" />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
