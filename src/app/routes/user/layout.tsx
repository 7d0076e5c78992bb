import { BanknoteIcon, ShoppingCartIcon, UserCogIcon, WalletIcon } from 'lucide-react';
import { Outlet } from 'react-router-dom';
import { RedirectToLogin } from '@/components/guards/redirect-to-login';
import { SessionPending } from '@/components/guards/session-pending';
import { AppShell } from '@/components/layouts/app-shell';
import type { NavGroup } from '@/components/layouts/app-shell-nav';
import { useAuth } from '@/lib/auth';

const userNavigation: NavGroup[] = [
  {
    title: 'Trading',
    items: [
      { to: '/user/wallet', label: 'Wallet', icon: WalletIcon },
      { to: '/user/buy', label: 'Buy', icon: ShoppingCartIcon },
      { to: '/user/withdraw', label: 'Withdraw', icon: BanknoteIcon },
    ],
  },
  { title: 'Settings', items: [{ to: '/user/account', label: 'Account', icon: UserCogIcon }] },
];

/** /user/*: signed-in people only; visitors go to /login and come back after logging in. */
export default function UserAreaLayout() {
  const { isLoading, session } = useAuth();
  if (isLoading) return <SessionPending />;
  if (!session) return <RedirectToLogin />;
  return (
    <AppShell navGroups={userNavigation}>
      <Outlet />
    </AppShell>
  );
}
