import { DownloadIcon, ShieldCheckIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { downloadText } from '@/lib/csv';
import { getLatestCheckpoint } from '../api/get-latest-checkpoint';
import { getMyProof } from '../api/get-my-proof';
import { ProofMeaning, ProofVerdictView } from './proof-verdict';
import { MY_PROOF_FAILED_MESSAGE } from '../api/proof-messages';

interface Checked {
  proof: unknown;
  publishedRoot?: string;
}

/**
 * The wallet's proof of liabilities: the person downloads their inclusion proof in the latest checkpoint, or
 * checks it here against the root published on its own (fetched apart from the proof).
 */
export function MyProofCard() {
  const [checked, setChecked] = useState<Checked | null>();
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setFailed(false);
    try {
      await work();
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  const download = () =>
    run(async () => {
      const proof = await getMyProof();
      if (proof === null) return setChecked(null);
      downloadText('coinvault-proof.json', `${JSON.stringify(proof, null, 2)}\n`, 'application/json');
    });
  const check = () =>
    run(async () => {
      const [proof, latest] = await Promise.all([getMyProof(), getLatestCheckpoint()]);
      setChecked(proof === null ? null : { proof, publishedRoot: latest?.root });
    });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Proof of liabilities</CardTitle>
        <CardDescription>
          Your proof that CoinVault&apos;s published total of what it owes includes you, as of the latest
          daily checkpoint. <Link to="/proof">What is this?</Link>
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={download} disabled={busy}>
            <DownloadIcon aria-hidden /> Download my proof
          </Button>
          <Button variant="outline" onClick={check} disabled={busy}>
            <ShieldCheckIcon aria-hidden /> Check it here
          </Button>
        </div>
        {failed && (
          <p role="alert" className="text-destructive text-sm">
            {MY_PROOF_FAILED_MESSAGE}
          </p>
        )}
        {checked === null && (
          <p role="status" className="text-muted-foreground text-sm">
            The latest checkpoint has no entry for you yet: it counts people who have had money or coins with
            us by the time it was made.
          </p>
        )}
        {checked && (
          <>
            <ProofVerdictView proof={checked.proof} expected={{ publishedRoot: checked.publishedRoot }} />
            <ProofMeaning />
          </>
        )}
      </CardContent>
    </Card>
  );
}
