import { LockIcon, ShieldAlertIcon } from 'lucide-react';
import { useLiveMoneyRestrictions } from '../hooks/use-live-money-restrictions';

/**
 * Above every page of the person's area while their lock, freeze or security hold refuses something: what is
 * refused and why, in the words the refusal itself would use. Live: it shows and goes without a reload.
 * Nothing while it loads or if it cannot load (each refusal still says why when it happens).
 */
export function MoneyRestrictionsBanner() {
  const { data: restrictions } = useLiveMoneyRestrictions();
  if (!restrictions) return null;
  // A lock or a freeze stops all but deposits; a security hold stops withdrawals only.
  const locked = restrictions.buyingAndSelling !== null;
  const Icon = locked ? LockIcon : ShieldAlertIcon;
  return (
    <section
      role="status"
      aria-label={locked ? 'Only deposits go through' : 'Withdrawals on hold'}
      data-testid={locked ? 'lock-banner' : 'hold-banner'}
      className="border-destructive/40 bg-destructive/5 mb-6 flex gap-3 rounded-lg border p-4 text-sm"
    >
      <Icon aria-hidden className="text-destructive mt-0.5 size-5 shrink-0" />
      <div className="grid gap-1">
        <p className="font-medium">
          {locked ? 'Only deposits go through for now' : 'Withdrawals are on hold'}
        </p>
        {restrictions.withdrawals && <p>{restrictions.withdrawals}</p>}
        {restrictions.buyingAndSelling && <p>{restrictions.buyingAndSelling}</p>}
      </div>
    </section>
  );
}
