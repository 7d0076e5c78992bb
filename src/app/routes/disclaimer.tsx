import { LegalPage } from '@/features/legal/components/legal-page';
import { disclaimer } from '@/features/legal/content/disclaimer';

export default function DisclaimerRoute() {
  return <LegalPage document={disclaimer} />;
}
