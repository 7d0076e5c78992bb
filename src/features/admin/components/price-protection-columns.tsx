import { DateTime } from '@/components/date-time';
import { TableCell } from '@/components/ui/table';
import { isPastLimit, type RequestSide } from '@domain/price-protection.ts';
import type { RequestStatus } from '@domain/statuses.ts';
import type { PriceProtectedRequest } from '../api/price-protection-fields';
import type { ListColumn } from './admin-list-card';
import { limitText, NONE } from './price-protection-texts';

type ProtectedRequest = PriceProtectedRequest & { status: RequestStatus };

/**
 * A request's limit and expiry in a queue: while pending, the limit is set against the current price (an
 * approval past it is refused), and an expiry that has passed reads 'Expired'.
 */
export function priceProtectionColumns<Item extends ProtectedRequest>(side: RequestSide): ListColumn<Item>[] {
  return [
    {
      header: 'Limit (USD)',
      align: 'right',
      cell: (request) => {
        const pastLimit =
          request.status === 'pending' &&
          request.price !== undefined &&
          isPastLimit(side, request.price, request.limitPrice ?? null);
        return (
          <TableCell className="text-right tabular-nums" data-testid="limit-cell">
            <span className="block">{limitText(request.limitPrice)}</span>
            {pastLimit && (
              <span className="text-destructive block text-xs font-medium">
                Price {side === 'buy' ? 'above' : 'below'} the limit
              </span>
            )}
          </TableCell>
        );
      },
    },
    {
      header: 'Expires',
      cell: (request) => (
        <TableCell data-testid="expiry-cell">
          {request.status !== 'pending' ? (
            NONE
          ) : request.expired ? (
            <span className="text-destructive font-medium">Expired</span>
          ) : (
            <DateTime value={request.expiresAt} />
          )}
        </TableCell>
      ),
    },
  ];
}
