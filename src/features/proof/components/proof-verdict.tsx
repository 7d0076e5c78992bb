import { CheckCircle2Icon, XCircleIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { ProofExpectations, ProofVerdict } from '@domain/liability-proof.ts';
import { loadProofChecker } from '../utils/proof-checker';

/**
 * Checks a proof in this browser (Web Crypto; nothing is sent anywhere) and says, check by check, what was
 * checked and whether it held, then what the outcome means.
 */
export function ProofVerdictView({ proof, expected }: { proof: unknown; expected: ProofExpectations }) {
  const [verdict, setVerdict] = useState<ProofVerdict>();
  const { publishedRoot, balances } = expected;

  useEffect(() => {
    let current = true;
    void loadProofChecker()
      .then(({ verifyLiabilityProof }) => verifyLiabilityProof(proof, { publishedRoot, balances }))
      .then((result) => {
        if (current) setVerdict(result);
      });
    return () => {
      current = false;
    };
  }, [proof, publishedRoot, balances]);

  if (!verdict) return <p className="text-muted-foreground text-sm">Checking the proof in your browser…</p>;
  return (
    <div className="grid gap-3" data-testid="proof-verdict">
      <ul className="grid gap-2">
        {verdict.checks.map((check) => (
          <li key={check.name} className="flex items-start gap-2 text-sm">
            {check.passed ? (
              <CheckCircle2Icon aria-hidden className="mt-0.5 size-4 shrink-0 text-emerald-600" />
            ) : (
              <XCircleIcon aria-hidden className="text-destructive mt-0.5 size-4 shrink-0" />
            )}
            <span className="min-w-0 break-words">
              <span className="font-medium">
                {check.passed ? 'Passed' : 'Failed'}: {check.name}.
              </span>{' '}
              <span className="text-muted-foreground">{check.detail}</span>
            </span>
          </li>
        ))}
      </ul>
      <p role="status" className={verdict.valid ? 'font-medium' : 'text-destructive font-medium'}>
        {verdict.valid
          ? 'The proof is valid: the total CoinVault published for this checkpoint includes your balances, as stated in the proof.'
          : 'The proof is not valid: do not rely on it, and contact support with the file.'}
      </p>
    </div>
  );
}

/** What a proof means, in plain words, wherever one is checked. */
export function ProofMeaning() {
  return (
    <div className="text-muted-foreground grid gap-2 text-sm">
      <p>
        <span className="text-foreground font-medium">What a valid proof shows.</span> Every day CoinVault
        adds up what it owes each person into one published fingerprint (the root of a Merkle sum tree). Your
        proof holds your balances, a random salt that hides them from everyone else, and the steps from your
        entry up to that root. If the steps lead to the published root, the total CoinVault admits to owing
        includes what it owes you, counted once.
      </p>
      <p>
        <span className="text-foreground font-medium">What it does not show.</span> It does not prove that
        CoinVault holds the money and coins to pay everyone (that is a proof of reserves); it covers the
        moment of the checkpoint, not later; and it checks your entry only, so compare the balances in it with
        your own records.
      </p>
    </div>
  );
}
