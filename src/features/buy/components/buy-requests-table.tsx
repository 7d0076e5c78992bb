import { DateTime } from '@/components/date-time';
import { StatusBadge } from '@/components/ui/status-badge';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { coinName } from '@domain/coins.ts';
import { shownStatus } from '@domain/price-protection.ts';
import { formatUsd } from '@/lib/format';
import type { BuyRequest } from '../types';

export interface BuyRequestsTableProps {
  requests: readonly BuyRequest[];
  /** The loaded coins' names by id ('Bitcoin', never 'bitcoin'). */
  coinNames: ReadonlyMap<string, string>;
}

/** 'Your Buy Requests': newest first, as the query orders them; a pending request past its expiry reads 'Expired'. */
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
              <DateTime value={request.date} />
            </TableCell>
            <TableCell>{coinName(request.cryptocurrency, coinNames)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatUsd(request.amount)}</TableCell>
            <TableCell>
              <StatusBadge status={shownStatus(request.status, request.expires_at)} palette="buy" />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
