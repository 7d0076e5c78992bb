import { HandCoinsIcon } from 'lucide-react';
import { CancelRequestButton } from '@/components/cancel-request-button';
import { RequestDetails } from '@/components/request-details';
import { PastLimitNote } from '@/components/past-limit-note';
import { QueryState, type QueryView, SkeletonRows } from '@/components/query-state';
import { RequestRow, RequestTable } from '@/components/request-table';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { StatusBadge } from '@/components/ui/status-badge';
import { Table, TableBody, TableCell, TableHead } from '@/components/ui/table';
import { coinName } from '@domain/coins.ts';
import { shownStatus } from '@domain/price-protection.ts';
import { formatUsd } from '@/lib/format';
import { walletSellRequestsQueryKey, type SellRequest } from '../api/get-sell-requests';

const COLUMNS = 6;

/**
 * 'Your Sell Requests': the person's newest sell requests with their limit and status, live; a pending request
 * past its expiry reads 'Expired'.
 */
export function SellRequestsCard({
  requests,
  coinNames,
  prices,
  userId,
}: {
  /** The signed-in person: their pending requests offer Cancel. */
  userId?: string;
  requests: QueryView<readonly SellRequest[]>;
  /** The loaded coins' names by id ('Bitcoin', never 'bitcoin'). */
  coinNames: ReadonlyMap<string, string>;
  /** The loaded coins' current prices by id: a pending request's limit is set against them. */
  prices: ReadonlyMap<string, number>;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <HandCoinsIcon className="text-primary size-4" aria-hidden />
          Your Sell Requests
        </CardTitle>
        <CardDescription>Coins you asked to sell, newest first</CardDescription>
      </CardHeader>
      <CardContent>
        <QueryState
          query={requests}
          errorMessage="Failed to fetch sell requests"
          placeholder={
            <Table>
              <TableBody>
                <SkeletonRows rows={2} columns={COLUMNS} />
              </TableBody>
            </Table>
          }
        >
          {(rows) => (
            <RequestTable
              requests={rows}
              none="You have no sell requests at the moment."
              headings={
                <>
                  <TableHead>Cryptocurrency</TableHead>
                  <TableHead align="right">Quantity</TableHead>
                  <TableHead align="right">Limit price</TableHead>
                </>
              }
            >
              {(request) => (
                <RequestRow
                  key={request.id}
                  testId="sell-request-row"
                  date={request.date}
                  status={
                    <>
                      <StatusBadge status={shownStatus(request.status, request.expiresAt)} palette="buy" />
                      <PastLimitNote
                        side="sell"
                        status={request.status}
                        limitPrice={request.limitPrice}
                        price={prices.get(request.cryptocurrency)}
                      />
                      <RequestDetails
                        status={request.status}
                        expiresAt={request.expiresAt}
                        fill={
                          request.fillPrice === null || request.credited === null
                            ? null
                            : {
                                price: request.fillPrice,
                                received: `${formatUsd(request.credited)} credited`,
                              }
                        }
                        rejectionReason={request.rejectionReason}
                      />
                    </>
                  }
                  action={
                    userId &&
                    request.status === 'pending' && (
                      <CancelRequestButton
                        kind="sell"
                        requestId={request.id}
                        userId={userId}
                        listKey={walletSellRequestsQueryKey(userId)}
                        summary={`your sale of ${request.quantity} ${coinName(request.cryptocurrency, coinNames)}`}
                      />
                    )
                  }
                >
                  <TableCell>{coinName(request.cryptocurrency, coinNames)}</TableCell>
                  <TableCell className="text-right tabular-nums">{request.quantity}</TableCell>
                  <TableCell className="text-right tabular-nums">
                    {request.limitPrice === null ? 'None' : formatUsd(request.limitPrice)}
                  </TableCell>
                </RequestRow>
              )}
            </RequestTable>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
