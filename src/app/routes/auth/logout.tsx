import { LogoutScreen } from '@/features/auth/components/logout-screen';

export default function LogoutRoute() {
  return <LogoutScreen />;
}
