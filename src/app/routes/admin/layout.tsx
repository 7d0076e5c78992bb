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
import { AppShell } from '@/components/layouts/app-shell';
import type { NavGroup } from '@/components/layouts/app-shell-nav';
import { PendingQueues } from '@/features/admin/components/pending-queues';
import { AdminAssuranceGate } from '@/features/auth/components/admin-assurance-gate';

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

/**
 * The shell of /admin/* (the router admits admins only), with the live counts of the pending queues; admins
 * work at aal2 only, so one without a factor sets it up first.
 */
export default function AdminAreaLayout() {
  return (
    <AppShell navGroups={adminNavigation}>
      <AdminAssuranceGate>
        <PendingQueues />
        <Outlet />
      </AdminAssuranceGate>
    </AppShell>
  );
}
