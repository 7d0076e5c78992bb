import { useEffect, useState, type ChangeEvent } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { useLatestCheckpoint } from '../api/get-latest-checkpoint';
import { LatestCheckpoint } from './latest-checkpoint';
import { loadProofChecker } from '../utils/proof-checker';
import { ProofMeaning, ProofVerdictView } from './proof-verdict';

/**
 * /proof, for anyone: the latest published root, and a proof file checked in this browser against it.
 * A proof is downloaded from the wallet; checking it sends nothing anywhere.
 */
export function PublicProofPage() {
  const checkpoint = useLatestCheckpoint();
  const [proof, setProof] = useState<{ name: string; content: unknown }>();
  const [unreadable, setUnreadable] = useState<string>();
  useEffect(() => void loadProofChecker(), []);

  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setProof(undefined);
    setUnreadable(undefined);
    if (!file) return;
    try {
      setProof({ name: file.name, content: JSON.parse(await file.text()) });
    } catch {
      setUnreadable(`${file.name} is not a JSON file.`);
    }
  };

  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-12">
      <header className="grid gap-2">
        <h1 className="text-3xl font-semibold tracking-tight">Proof of liabilities</h1>
        <p className="text-muted-foreground">
          Check that the total CoinVault says it owes its customers includes what it owes you.
        </p>
      </header>
      <Card>
        <CardHeader>
          <CardTitle>Latest checkpoint</CardTitle>
          <CardDescription>
            Made daily from the books; anyone may copy the root to compare later.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <LatestCheckpoint />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Check a proof</CardTitle>
          <CardDescription>
            Download your proof from your wallet, then choose the file here. It is checked in this browser and
            sent nowhere.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <FormField label="Proof file">
            {(control) => (
              <Input {...control} type="file" accept="application/json,.json" onChange={readFile} />
            )}
          </FormField>
          {unreadable && (
            <p role="alert" className="text-destructive text-sm">
              {unreadable}
            </p>
          )}
          {proof && (
            <ProofVerdictView
              key={proof.name}
              proof={proof.content}
              expected={{ publishedRoot: checkpoint.data?.root }}
            />
          )}
          <ProofMeaning />
        </CardContent>
      </Card>
    </div>
  );
}
