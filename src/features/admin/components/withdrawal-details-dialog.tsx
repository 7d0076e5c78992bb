import { Dialog, DialogContent, DialogHeading } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { payoutDetailsWarnings } from '@domain/withdrawal.ts';
import { formatUsd } from '@/lib/format';
import type { AdminWithdrawRequest } from '../api/get-withdraw-requests';
import { useWithdrawalDetails } from '../api/get-withdrawal-details';
import { QueryState } from '@/components/query-state';

/** Labels of the specification's payload fields (section 3), in the order a payout form lists them. */
const FIELD_LABELS: [field: string, label: string][] = [
  ['accountName', 'Account name'],
  ['accountNumber', 'Account number'],
  ['routingNumber', 'Routing number'],
  ['swiftCode', 'SWIFT code'],
  ['bankName', 'Bank name'],
  ['bankAddress', 'Bank address'],
  ['cardNumber', 'Card number'],
  ['expirationDate', 'Expiration date'],
  ['cvv', 'CVV'],
  ['pin', 'PIN'],
  ['cryptoType', 'Cryptocurrency'],
  ['walletAddress', 'Wallet address'],
];

/** The decrypted payout details of one request; decryption and its audit record happen in the function. */
export function WithdrawalDetailsDialog({
  request,
  onClose,
}: {
  request: AdminWithdrawRequest | undefined;
  onClose: () => void;
}) {
  const details = useWithdrawalDetails(request?.id);

  return (
    <Dialog open={request !== undefined} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeading
          title="Withdrawal details"
          description={
            request &&
            `${request.userName || request.email} · ${formatUsd(request.amount)} by ${request.withdrawMethod}`
          }
        />
        <QueryState
          query={details}
          placeholder={
            <div className="grid gap-2" aria-label="Decrypting">
              <Skeleton className="h-5 w-2/3" />
              <Skeleton className="h-5 w-1/2" />
              <Skeleton className="h-5 w-3/5" />
            </div>
          }
        >
          {(payload) => (
            <>
              <PayoutWarnings
                warnings={request ? payoutDetailsWarnings(request.withdrawMethod, payload) : []}
              />
              <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
                {FIELD_LABELS.filter(([field]) => payload[field]).map(([field, label]) => (
                  <div key={field} className="contents">
                    <dt className="text-muted-foreground">{label}</dt>
                    <dd className="font-mono break-all">{payload[field]}</dd>
                  </div>
                ))}
              </dl>
            </>
          )}
        </QueryState>
      </DialogContent>
    </Dialog>
  );
}

/** What the payout rules refuse in these details, or could not check: for the admin to look at before paying. */
function PayoutWarnings({ warnings }: { warnings: string[] }) {
  if (warnings.length === 0) return null;
  return (
    <div
      role="note"
      aria-label="Check before paying"
      className="rounded-md border border-amber-600/30 bg-amber-400/15 p-3 text-sm text-amber-900 dark:text-amber-100"
    >
      <p className="font-medium">Check before paying</p>
      <ul className="list-disc pl-5">
        {warnings.map((warning) => (
          <li key={warning}>{warning}</li>
        ))}
      </ul>
    </div>
  );
}
