import { CopyIcon, QrCodeIcon } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { QueryState, type QueryView } from '@/components/query-state';
import { company } from '@/config/company';
import { copyWithToast } from '@/lib/clipboard';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { previewWalletCode } from '../utils/wallet-code';

const WALLET_QR_SIZE = 120;

// Drawn after the card: the QR library (7 KiB) is no part of the wallet's first load, and encoding the
// code (~25 ms at 4 × CPU) is a task of its own rather than part of the render that shows the profile.
const QRCodeSVG = lazy(() =>
  import('qrcode.react').then(({ QRCodeSVG: component }) => ({ default: component })),
);

export function WalletCodeCard({ walletCode }: { walletCode: QueryView<string> }) {
  const [expanded, setExpanded] = useState(false);

  const copy = (code: string) =>
    copyWithToast(code, { copied: 'Wallet code copied', failed: 'Could not copy the wallet code' });

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <QrCodeIcon className="text-primary size-4" aria-hidden />
          Wallet code
        </CardTitle>
        <CardDescription>
          Identifies your {company.name} wallet. It is not a Bitcoin address: coins sent to it are not
          received.
        </CardDescription>
      </CardHeader>
      <CardContent className="@container">
        <QueryState
          query={walletCode}
          placeholder={
            <div className="flex items-center gap-4">
              <Skeleton className="size-[136px]" />
              <Skeleton className="h-5 w-36" />
            </div>
          }
          errorMessage="Failed to fetch user data"
        >
          {(code) => (
            <div className="flex flex-col items-start gap-4 @xs:flex-row @xs:items-center">
              {/* A white quiet zone keeps the code scannable in the dark theme too. */}
              <div className="shrink-0 rounded-md bg-white p-2" data-testid="wallet-qr">
                <Suspense fallback={<Skeleton className="size-[120px]" />}>
                  <QRCodeSVG
                    value={code}
                    size={WALLET_QR_SIZE}
                    role="img"
                    aria-label="QR code of your wallet code"
                  />
                </Suspense>
              </div>
              <div className="grid min-w-0 gap-2">
                <code data-testid="wallet-code" className="font-mono text-sm break-all">
                  {expanded ? code : previewWalletCode(code)}
                </code>
                <div className="flex flex-wrap gap-2">
                  <Button
                    type="button"
                    variant="outline"
                    size="sm"
                    aria-expanded={expanded}
                    onClick={() => setExpanded((open) => !open)}
                  >
                    {expanded ? 'Hide' : 'Show More'}
                  </Button>
                  <Button type="button" variant="outline" size="sm" onClick={() => void copy(code)}>
                    <CopyIcon aria-hidden />
                    Copy
                  </Button>
                </div>
              </div>
            </div>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
