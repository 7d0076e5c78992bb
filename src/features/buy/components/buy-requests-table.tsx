import { DateTime } from '@/components/date-time';
import { PastLimitNote } from '@/components/past-limit-note';
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
  /** The loaded coins' current prices by id: a pending request's limit is set against them. */
  prices?: ReadonlyMap<string, number>;
}

/** 'Your Buy Requests': newest first, as the query orders them; a pending request past its expiry reads 'Expired'. */
export function BuyRequestsTable({ requests, coinNames, prices }: BuyRequestsTableProps) {
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
              <PastLimitNote
                side="buy"
                status={request.status}
                limitPrice={request.limit_price}
                price={prices?.get(request.cryptocurrency)}
              />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
