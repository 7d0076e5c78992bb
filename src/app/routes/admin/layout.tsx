import {
  ArrowLeftRightIcon,
  BanknoteIcon,
  HandCoinsIcon,
  PiggyBankIcon,
  ScrollTextIcon,
  SettingsIcon,
  ShoppingCartIcon,
  TagsIcon,
  UsersIcon,
  BookCheckIcon,
  SnowflakeIcon,
} from 'lucide-react';
import { Outlet } from 'react-router-dom';
import { AppShell } from '@/components/layouts/app-shell';
import { LazyNotificationBell } from '@/features/notifications/components/lazy-notification-bell';
import type { NavGroup } from '@/components/layouts/app-shell-nav';
import { PendingCountBadge } from '@/features/admin/components/pending-count-badge';
import { useLivePendingCounts } from '@/features/admin/hooks/use-live-pending-counts';
import { AssuranceGate } from '@/features/auth/components/assurance-gate';

const adminNavigation: NavGroup[] = [
  {
    title: 'User Management',
    items: [
      { to: '/admin/users', label: 'Users', icon: UsersIcon },
      { to: '/admin/frozen-accounts', label: 'Frozen accounts', icon: SnowflakeIcon },
    ],
  },
  {
    title: 'Transactions',
    items: [
      { to: '/admin/transactions', label: 'Transactions', icon: ArrowLeftRightIcon },
      { to: '/admin/deposit', label: 'Deposit', icon: PiggyBankIcon },
      { to: '/admin/status-types', label: 'Status types', icon: TagsIcon },
    ],
  },
  {
    title: 'Requests',
    items: [
      {
        to: '/admin/buy-requests',
        label: 'Buy requests',
        icon: ShoppingCartIcon,
        badge: <PendingCountBadge queue="buyRequests" />,
      },
      {
        to: '/admin/sell-requests',
        label: 'Sell requests',
        icon: HandCoinsIcon,
        badge: <PendingCountBadge queue="sellRequests" />,
      },
      {
        to: '/admin/withdraw-requests',
        label: 'Withdraw requests',
        icon: BanknoteIcon,
        badge: <PendingCountBadge queue="withdrawRequests" />,
      },
    ],
  },
  {
    title: 'System',
    items: [
      { to: '/admin/settings', label: 'Settings', icon: SettingsIcon },
      { to: '/admin/audit-log', label: 'Audit log', icon: ScrollTextIcon },
      { to: '/admin/ledger', label: 'Ledger', icon: BookCheckIcon },
    ],
  },
];

/**
 * The shell of /admin/* (the router admits admins only), with the queues' live pending counts in its menu; admins
 * work at aal2 only, so one without a factor sets it up first.
 */
export default function AdminAreaLayout() {
  useLivePendingCounts();
  return (
    <AppShell navGroups={adminNavigation} topBarActions={<LazyNotificationBell />}>
      <AssuranceGate factorRequired>
        <Outlet />
      </AssuranceGate>
    </AppShell>
  );
}
