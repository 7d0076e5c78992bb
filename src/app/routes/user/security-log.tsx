import { SecurityLogPage } from '@/features/account-security/components/security-log-page';

export default function SecurityLogRoute() {
  return <SecurityLogPage />;
}
