import { CancelRequestButton } from '@/components/cancel-request-button';
import { RequestDetails } from '@/components/request-details';
import { PastLimitNote } from '@/components/past-limit-note';
import { StatusBadge } from '@/components/ui/status-badge';
import { TableCell, TableHead } from '@/components/ui/table';
import { RequestRow, RequestTable } from '@/components/request-table';
import { coinName } from '@domain/coins.ts';
import { shownStatus } from '@domain/price-protection.ts';
import { formatCryptoAmount, formatUsd } from '@/lib/format';
import { buyRequestsQueryKey } from '../api/get-buy-requests';
import type { BuyRequest } from '../types';

export interface BuyRequestsTableProps {
  requests: readonly BuyRequest[];
  /** The loaded coins' names by id ('Bitcoin', never 'bitcoin'). */
  coinNames: ReadonlyMap<string, string>;
  /** The loaded coins' current prices by id: a pending request's limit is set against them. */
  prices?: ReadonlyMap<string, number>;
  /** The signed-in person: their pending requests offer Cancel. */
  userId?: string;
}

/** 'Your Buy Requests': newest first, as the query orders them; a pending request past its expiry reads 'Expired'. */
export function BuyRequestsTable({ requests, coinNames, prices, userId }: BuyRequestsTableProps) {
  return (
    <RequestTable
      requests={requests}
      none="You have no buy requests at the moment."
      headings={
        <>
          <TableHead>Cryptocurrency</TableHead>
          <TableHead align="right">Amount (USD)</TableHead>
        </>
      }
    >
      {(request) => (
        <RequestRow
          key={request.id}
          testId="buy-request-row"
          date={request.date}
          status={
            <>
              <StatusBadge status={shownStatus(request.status, request.expires_at)} palette="buy" />
              <PastLimitNote
                side="buy"
                status={request.status}
                limitPrice={request.limit_price}
                price={prices?.get(request.cryptocurrency)}
              />
              <RequestDetails
                status={request.status}
                expiresAt={request.expires_at}
                limitPrice={request.limit_price}
                fill={
                  request.fill_price === null || request.quantity === null
                    ? null
                    : {
                        price: request.fill_price,
                        received: `${formatCryptoAmount(Number(request.quantity))} ${coinName(request.cryptocurrency, coinNames)} received`,
                      }
                }
                rejectionReason={request.rejection_reason}
              />
            </>
          }
          action={
            userId &&
            request.status === 'pending' &&
            !request.id.startsWith('optimistic-') && (
              <CancelRequestButton
                kind="buy"
                requestId={request.id}
                userId={userId}
                listKey={buyRequestsQueryKey(userId)}
                summary={`your buy of ${formatUsd(request.amount)} of ${coinName(request.cryptocurrency, coinNames)}`}
              />
            )
          }
        >
          <TableCell>{coinName(request.cryptocurrency, coinNames)}</TableCell>
          <TableCell className="text-right tabular-nums">{formatUsd(request.amount)}</TableCell>
        </RequestRow>
      )}
    </RequestTable>
  );
}
