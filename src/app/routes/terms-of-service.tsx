import { LegalPage } from '@/features/legal/components/legal-page';
import { termsOfService } from '@/features/legal/content/terms-of-service';

export default function TermsOfServiceRoute() {
  return <LegalPage document={termsOfService} />;
}
