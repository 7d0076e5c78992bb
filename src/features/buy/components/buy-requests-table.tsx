import { DateTime } from '@/components/date-time';
import { StatusBadge } from '@/components/ui/status-badge';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { coinName } from '@domain/coins.ts';
import { isPastLimit, shownStatus } from '@domain/price-protection.ts';
import { formatUsd } from '@/lib/format';
import type { BuyRequest } from '../types';

export interface BuyRequestsTableProps {
  requests: readonly BuyRequest[];
  /** The loaded coins' names by id ('Bitcoin', never 'bitcoin'). */
  coinNames: ReadonlyMap<string, string>;
  /** The loaded coins' current prices by id: a pending request's limit is set against them. */
  prices?: ReadonlyMap<string, number>;
}

/** Under a pending request whose limit the current price has passed: why it may not be filled. */
function PastLimitNote({ request, price }: { request: BuyRequest; price: number | undefined }) {
  if (request.status !== 'pending' || request.limit_price === null || price === undefined) return null;
  if (!isPastLimit('buy', price, request.limit_price)) return null;
  return (
    <p className="text-destructive mt-1 text-xs">
      The price is above your limit of {formatUsd(request.limit_price)}
    </p>
  );
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
              <PastLimitNote request={request} price={prices?.get(request.cryptocurrency)} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
