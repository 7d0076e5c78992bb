import {
  ArrowLeftRightIcon,
  BanknoteIcon,
  PiggyBankIcon,
  ScrollTextIcon,
  SettingsIcon,
  ShoppingCartIcon,
  TagsIcon,
  UsersIcon,
} from 'lucide-react';
import { Outlet } from 'react-router-dom';
import { RedirectToLogin } from '@/components/guards/redirect-to-login';
import { SessionPending } from '@/components/guards/session-pending';
import { AppShell } from '@/components/layouts/app-shell';
import type { NavGroup } from '@/components/layouts/app-shell-nav';
import { useAuth } from '@/lib/auth';

const adminNavigation: NavGroup[] = [
  { title: 'User Management', items: [{ to: '/admin/users', label: 'Users', icon: UsersIcon }] },
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
      { to: '/admin/buy-requests', label: 'Buy requests', icon: ShoppingCartIcon },
      { to: '/admin/withdraw-requests', label: 'Withdraw requests', icon: BanknoteIcon },
    ],
  },
  {
    title: 'System',
    items: [
      { to: '/admin/settings', label: 'Settings', icon: SettingsIcon },
      { to: '/admin/audit-log', label: 'Audit log', icon: ScrollTextIcon },
    ],
  },
];

/** /admin/*: admins only (spec §2); anyone else goes to /login and comes back after logging in. */
export default function AdminAreaLayout() {
  const { isLoading, isAdmin } = useAuth();
  if (isLoading) return <SessionPending />;
  if (!isAdmin) return <RedirectToLogin />;
  return (
    <AppShell navGroups={adminNavigation}>
      <Outlet />
    </AppShell>
  );
}
