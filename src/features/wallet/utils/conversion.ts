/**
 * The converter of the specification: the amount is turned into US dollars at a fixed rate, multiplied by
 * the price of the coin converted from and divided by the price of the coin converted to.
 */

export const converterCurrencies = ['USD', 'EUR', 'GBP', 'JPY', 'AUD', 'CAD'] as const;

export type ConverterCurrency = (typeof converterCurrencies)[number];

/** How each currency is offered in the currency choice. */
export const currencySymbols: Record<ConverterCurrency, string> = {
  USD: '$',
  EUR: '€',
  GBP: '£',
  JPY: '¥',
  AUD: 'A$',
  CAD: 'C$',
};

/** The specification's fixed rates: US dollars per unit of each currency. */
export const usdPerUnit: Record<ConverterCurrency, number> = {
  USD: 1,
  EUR: 1.1,
  GBP: 1.25,
  JPY: 0.0067,
  AUD: 0.65,
  CAD: 0.74,
};

export interface Conversion {
  amount: number;
  currency: ConverterCurrency;
  fromPrice: number;
  toPrice: number;
}

/** Amount in USD × from-price ÷ to-price. */
export function convert({ amount, currency, fromPrice, toPrice }: Conversion): number {
  return (amount * usdPerUnit[currency] * fromPrice) / toPrice;
}
