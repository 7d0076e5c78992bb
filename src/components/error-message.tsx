import { AlertCircleIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/**
 * The app's one error presentation: a failure or refusal a person should read now (a panel that did not
 * load, a field's problem, an action that failed), announced as an alert; the rest of the page keeps working.
 */
export function ErrorMessage({
  id,
  children,
}: {
  /** For a control's `aria-describedby`. */
  id?: string;
  children: ReactNode;
}) {
  return (
    <p id={id} role="alert" className="text-destructive flex items-center gap-2 text-sm">
      <AlertCircleIcon className="size-4 shrink-0" aria-hidden />
      {children}
    </p>
  );
}
