import { LoaderCircleIcon } from 'lucide-react';

/**
 * Shown while the stored session is restored and the role read, so guards never redirect too early. The
 * icon turns only after a second, as a skeleton pulses (`ui/skeleton.tsx`): this wait is most often shorter.
 */
export function SessionPending() {
  return (
    <div role="status" className="text-muted-foreground flex min-h-[50vh] items-center justify-center gap-2">
      <LoaderCircleIcon className="size-5 animate-spin [animation-delay:1s]" aria-hidden />
      Loading…
    </div>
  );
}
