import { useId, type ReactNode } from 'react';
import { cn } from '@/lib/utils';
import { Label } from './label';
import { ErrorMessage } from '@/components/error-message';

/** What a form control needs so its label and error text are tied to it for assistive technology. */
export interface FormControlProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

export function FormField({
  label,
  hint,
  error,
  className,
  children,
}: {
  label: ReactNode;
  /** What the field takes (a limit, a format), shown under it and read with it. */
  hint?: ReactNode;
  error?: string;
  className?: string;
  children: (control: FormControlProps) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : undefined, error ? errorId : undefined].filter(Boolean).join(' ');
  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': describedBy || undefined })}
      {hint && (
        <p id={hintId} className="text-muted-foreground text-xs">
          {hint}
        </p>
      )}
      {error && <ErrorMessage id={errorId}>{error}</ErrorMessage>}
    </div>
  );
}
