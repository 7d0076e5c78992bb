import { CopyIcon, QrCodeIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { QueryState, type QueryView } from '@/components/query-state';
import { company } from '@/config/company';
import { copyWithToast } from '@/lib/clipboard';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { encodeQrCode } from '../utils/encode-qr-code';
import type { QrCodePath } from '../utils/qr-code-path';
import { previewWalletCode } from '../utils/wallet-code';

const WALLET_QR_SIZE = 120;

/** The QR code of `code`, `WALLET_QR_SIZE` pixels square, once a worker has encoded it. */
function WalletQrCode({ code }: { code: string }) {
  const [encoded, setEncoded] = useState<{ code: string; qr: QrCodePath } | null>(null);
  useEffect(() => {
    let current = true;
    void encodeQrCode(code).then((qr) => current && setEncoded({ code, qr }));
    return () => {
      current = false;
    };
  }, [code]);
  if (encoded?.code !== code) return <Skeleton className="size-[120px]" />;
  const { size, path } = encoded.qr;
  return (
    <svg
      role="img"
      aria-label="QR code of your wallet code"
      width={WALLET_QR_SIZE}
      height={WALLET_QR_SIZE}
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
    >
      <path fill="#ffffff" d={`M0 0h${size}v${size}H0z`} />
      <path fill="#000000" d={path} />
    </svg>
  );
}

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
                <WalletQrCode code={code} />
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
