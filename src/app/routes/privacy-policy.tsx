import { LegalPage } from '@/features/legal/components/legal-page';
import { privacyPolicy } from '@/features/legal/content/privacy-policy';

export default function PrivacyPolicyRoute() {
  return <LegalPage document={privacyPolicy} />;
}
