import { AlertCircleIcon } from 'lucide-react';

/** The catalogue's error text for a panel whose data failed to load; the rest of the page keeps working. */
export function LoadError({ message }: { message: string }) {
  return (
    <p role="alert" className="text-destructive flex items-center gap-2 text-sm">
      <AlertCircleIcon className="size-4 shrink-0" aria-hidden />
      {message}
    </p>
  );
}
