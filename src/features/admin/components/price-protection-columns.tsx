import { DateTime } from '@/components/date-time';
import { TableCell } from '@/components/ui/table';
import { isPastLimit, type RequestSide } from '@domain/price-protection.ts';
import type { RequestStatus } from '@domain/statuses.ts';
import type { PriceProtectedRequest } from '../api/price-protection-fields';
import type { ListColumn } from './admin-list-card';
import { limitText } from './price-protection-texts';

type ProtectedRequest = PriceProtectedRequest & { status: RequestStatus };

/**
 * A request's limit with its expiry under it, in one column (the queue fits a 1366 px screen): while
 * pending, the limit is set against the current price (an approval past it is refused), and an expiry that
 * has passed reads 'Expired'; a decided request shows its limit only.
 */
export function priceProtectionColumn<Item extends ProtectedRequest>(side: RequestSide): ListColumn<Item> {
  return {
    header: 'Limit and expiry',
    align: 'right',
    cell: (request) => {
      const pastLimit =
        request.status === 'pending' &&
        request.price !== undefined &&
        isPastLimit(side, request.price, request.limitPrice ?? null);
      return (
        <TableCell className="text-right tabular-nums">
          <div data-testid="limit-cell">
            <span className="block">{limitText(request.limitPrice)}</span>
            {pastLimit && (
              <span className="text-destructive block text-xs font-medium">
                Price {side === 'buy' ? 'above' : 'below'} the limit
              </span>
            )}
          </div>
          {request.status === 'pending' && (
            <div data-testid="expiry-cell" className="text-muted-foreground mt-1 text-xs">
              {request.expired ? (
                <span className="text-destructive font-medium">Expired</span>
              ) : (
                <DateTime value={request.expiresAt} />
              )}
            </div>
          )}
        </TableCell>
      );
    },
  };
}
