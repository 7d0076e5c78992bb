import { LoaderCircleIcon } from 'lucide-react';

/** Shown while the stored session is restored and the role read, so guards never redirect too early. */
export function SessionPending() {
  return (
    <div role="status" className="text-muted-foreground flex min-h-[50vh] items-center justify-center gap-2">
      <LoaderCircleIcon className="size-5 animate-spin" aria-hidden />
      Loading…
    </div>
  );
}
