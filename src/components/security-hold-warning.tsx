import { useSecurityHoldHours } from '@/lib/security-hold-hours';

/**
 * Said before a security change, not after: changing the password, the e-mail or two-factor authentication
 * puts withdrawals on hold, so a person learns it before they make the change.
 */
export function SecurityHoldWarning() {
  const hours = useSecurityHoldHours();
  if (!hours.data) return null;
  return (
    <p className="text-muted-foreground text-sm" data-testid="security-hold-warning">
      Changing your password, your e-mail address or your two-factor authentication puts withdrawals on hold
      for {hours.data} hours, so that someone who took over your account cannot take your money at once.
      Buying and selling stay open.
    </p>
  );
}
