import type { ReactNode } from 'react';
import { FormField } from '@/components/ui/form-field';
import { NativeSelect } from '@/components/ui/native-select';
import type { MarketCoin } from '@/lib/market';

/** A labelled choice of the market's coins by name; `children` are options shown before them. */
export function MarketCoinField({
  label,
  className,
  coins,
  value,
  onValueChange,
  children,
}: {
  label: string;
  className?: string;
  coins: readonly MarketCoin[];
  /** The chosen coin's id. */
  value: string;
  onValueChange: (coin: string) => void;
  children?: ReactNode;
}) {
  return (
    <FormField label={label} className={className}>
      {(control) => (
        <NativeSelect {...control} value={value} onChange={(event) => onValueChange(event.target.value)}>
          {children}
          {coins.map((item) => (
            <option key={item.id} value={item.id}>
              {item.name}
            </option>
          ))}
        </NativeSelect>
      )}
    </FormField>
  );
}
