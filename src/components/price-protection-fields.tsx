import { FormField } from '@/components/ui/form-field';
import { NativeSelect } from '@/components/ui/native-select';
import { formatUsd } from '@/lib/format';
import {
  limitPriceFor,
  priceTolerances,
  requestLifetimes,
  type PriceTolerance,
  type RequestLifetime,
  type RequestSide,
} from '@domain/price-protection.ts';

/**
 * 'Price protection' and 'Expires after': how far the price may move against the person before an admin's
 * approval is refused (above the price shown for a buy, below it for a sell), and how long the request may
 * wait; the limit these give for the `price` shown is spelt out.
 */
export function PriceProtectionFields({
  side,
  price,
  tolerance,
  onToleranceChange,
  lifetime,
  onLifetimeChange,
}: {
  side: RequestSide;
  /** The price shown for the chosen coin (none before a coin is chosen or while prices are missing). */
  price: number | undefined;
  tolerance: PriceTolerance;
  onToleranceChange: (tolerance: PriceTolerance) => void;
  lifetime: RequestLifetime;
  onLifetimeChange: (lifetime: RequestLifetime) => void;
}) {
  const limit = limitPriceFor(side, price, tolerance);
  return (
    <>
      <FormField label="Price protection">
        {(control) => (
          <>
            <NativeSelect
              {...control}
              value={tolerance}
              onChange={(event) => onToleranceChange(Number(event.target.value) as PriceTolerance)}
            >
              {priceTolerances.map((choice) => (
                <option key={choice} value={choice}>
                  Fill only within {choice}% {side === 'buy' ? 'above' : 'below'} the price shown
                </option>
              ))}
            </NativeSelect>
            <p className="text-muted-foreground text-sm" data-testid="limit-price">
              {limit === undefined
                ? 'The limit price is set from the price shown when you submit.'
                : `Limit price: ${formatUsd(limit)} per coin. If the price is ${side === 'buy' ? 'above' : 'below'} it when an admin approves, or the request is ${lifetime.label} old, it is not filled.`}
            </p>
          </>
        )}
      </FormField>
      <FormField label="Expires after">
        {(control) => (
          <NativeSelect
            {...control}
            value={lifetime.hours}
            onChange={(event) =>
              onLifetimeChange(
                requestLifetimes.find(({ hours }) => hours === Number(event.target.value)) ?? lifetime,
              )
            }
          >
            {requestLifetimes.map((choice) => (
              <option key={choice.hours} value={choice.hours}>
                {choice.label}
              </option>
            ))}
          </NativeSelect>
        )}
      </FormField>
    </>
  );
}
