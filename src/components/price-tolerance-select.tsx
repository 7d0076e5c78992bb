import { FormField } from '@/components/ui/form-field';
import { NativeSelect } from '@/components/ui/native-select';
import { formatUsd } from '@/lib/format';
import {
  limitPriceFor,
  priceTolerances,
  type PriceTolerance,
  type RequestSide,
} from '@domain/price-protection.ts';

/**
 * 'Price protection': how far the price may move against the person before an admin's approval is refused,
 * above the price shown for a buy, below it for a sell; the limit it gives for the `price` shown is spelt out.
 */
export function PriceToleranceSelect({
  side,
  price,
  value,
  onChange,
}: {
  side: RequestSide;
  /** The price shown for the chosen coin (none before a coin is chosen or while prices are missing). */
  price: number | undefined;
  value: PriceTolerance;
  onChange: (tolerance: PriceTolerance) => void;
}) {
  const limit = limitPriceFor(side, price, value);
  return (
    <FormField label="Price protection">
      {(control) => (
        <>
          <NativeSelect
            {...control}
            value={value}
            onChange={(event) => onChange(Number(event.target.value) as PriceTolerance)}
          >
            {priceTolerances.map((tolerance) => (
              <option key={tolerance} value={tolerance}>
                Fill only within {tolerance}% {side === 'buy' ? 'above' : 'below'} the price shown
              </option>
            ))}
          </NativeSelect>
          <p className="text-muted-foreground text-sm" data-testid="limit-price">
            {limit === undefined
              ? 'The limit price is set from the price shown when you submit.'
              : `Limit price: ${formatUsd(limit)} per coin. If the price is ${side === 'buy' ? 'above' : 'below'} it when an admin approves, or the request is 24 hours old, it is not filled.`}
          </p>
        </>
      )}
    </FormField>
  );
}
