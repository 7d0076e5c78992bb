import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';
import { Input } from './input';

/** A dollar amount: the number keyboard on phones, steps of a cent, figures that line up. */
export function UsdAmountInput({
  className,
  ...props
}: Omit<ComponentProps<'input'>, 'type' | 'inputMode' | 'step'>) {
  return (
    <Input
      type="number"
      inputMode="decimal"
      step="0.01"
      className={cn('tabular-nums', className)}
      {...props}
    />
  );
}
