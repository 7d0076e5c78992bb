import { ShieldAlertIcon } from 'lucide-react';
import { useRestrictions, type RestrictedMovement } from '@/lib/restrictions';
import { cn } from '@/lib/utils';

/**
 * Before a form is filled: what the money gate would refuse this person now (a lock, a freeze, a security hold
 * and when it ends), in their words, for the movements the page offers. Nothing when nothing stops them.
 */
export function RestrictionsNotice({
  userId,
  movements,
  className,
}: {
  userId: string;
  movements: readonly RestrictedMovement[];
  className?: string;
}) {
  const restrictions = useRestrictions(userId);
  const refusals = [...new Set(movements.flatMap((movement) => restrictions.data?.get(movement) ?? []))];
  if (refusals.length === 0) return null;
  return (
    <div
      role="status"
      data-testid="restrictions-notice"
      className={cn(
        'grid gap-1 rounded-lg border border-amber-600/30 bg-amber-400/10 p-4 text-sm',
        className,
      )}
    >
      {refusals.map((refusal) => (
        <p key={refusal} className="flex items-start gap-2">
          <ShieldAlertIcon
            className="mt-0.5 size-4 shrink-0 text-amber-700 dark:text-amber-300"
            aria-hidden
          />
          <span>{refusal}</span>
        </p>
      ))}
    </div>
  );
}
