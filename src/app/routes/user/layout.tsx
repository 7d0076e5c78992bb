import {
  BanknoteIcon,
  BellRingIcon,
  RepeatIcon,
  ScrollTextIcon,
  ShoppingCartIcon,
  UserCogIcon,
  WalletIcon,
} from 'lucide-react';
import { Outlet } from 'react-router-dom';
import { AppShell } from '@/components/layouts/app-shell';
import { MoneyRestrictionsBanner } from '@/features/account-security/components/money-restrictions-banner';
import { AssuranceGate } from '@/features/auth/components/assurance-gate';
import { LazyNotificationBell } from '@/features/notifications/components/lazy-notification-bell';
import type { NavGroup } from '@/components/layouts/app-shell-nav';

const userNavigation: NavGroup[] = [
  {
    title: 'Trading',
    items: [
      { to: '/user/wallet', label: 'Wallet', icon: WalletIcon },
      { to: '/user/buy', label: 'Buy', icon: ShoppingCartIcon },
      { to: '/user/recurring-buys', label: 'Recurring buys', icon: RepeatIcon },
      { to: '/user/price-alerts', label: 'Price alerts', icon: BellRingIcon },
      { to: '/user/withdraw', label: 'Withdraw', icon: BanknoteIcon },
    ],
  },
  {
    title: 'Settings',
    items: [
      { to: '/user/account', label: 'Account', icon: UserCogIcon },
      { to: '/user/security-log', label: 'Security log', icon: ScrollTextIcon },
    ],
  },
];

/**
 * The shell of /user/* (the router admits signed-in people only); a person with two-factor authentication
 * enters their code before any page of it shows. A lock or a security hold is said above every page.
 */
export default function UserAreaLayout() {
  return (
    <AppShell navGroups={userNavigation} topBarActions={<LazyNotificationBell />}>
      <AssuranceGate>
        <MoneyRestrictionsBanner />
        <Outlet />
      </AssuranceGate>
    </AppShell>
  );
}
