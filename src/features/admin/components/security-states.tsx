import { ToneBadge } from '@/components/ui/status-badge';
import { formatDateTime } from '@/lib/format';
import type { AdminUser } from '../api/get-users';

/** What holds a person's money back or protects their account, as badges; the admin sees it before acting. */
export function SecurityStates({ user }: { user: AdminUser }) {
  return (
    <div className="flex max-w-56 flex-wrap gap-1" data-testid="security-states">
      <ToneBadge tone={user.twoFactor ? 'green' : 'gray'}>{user.twoFactor ? '2FA on' : 'No 2FA'}</ToneBadge>
      {user.holdUntil && <ToneBadge tone="yellow">Held until {formatDateTime(user.holdUntil)}</ToneBadge>}
      {user.withdrawalsLocked && <ToneBadge tone="red">Withdrawals locked</ToneBadge>}
      {user.frozen && <ToneBadge tone="red">Frozen</ToneBadge>}
    </div>
  );
}
