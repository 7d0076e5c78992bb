import { PublicProofPage } from '@/features/proof/components/public-proof-page';

export default function ProofRoute() {
  return <PublicProofPage />;
}
