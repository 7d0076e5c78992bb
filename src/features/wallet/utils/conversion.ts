/**
 * The converter: an amount of one coin gives the quantity of another at their market prices (in US dollars),
 * and its value in the chosen currency at the specification's fixed rate. The currency changes what the value
 * is shown in, never the coin quantity (a deviation: the specification multiplied the quantity by the rate).
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

export interface ConversionOutcome {
  /** How many to-coins the amount of from-coins is worth: amount × from-price ÷ to-price. */
  quantity: number;
  /** What the amount of from-coins is worth in the chosen currency. */
  value: number;
}

export function convert({ amount, currency, fromPrice, toPrice }: Conversion): ConversionOutcome {
  const usd = amount * fromPrice;
  return { quantity: usd / toPrice, value: usd / usdPerUnit[currency] };
}

/** A value in one of the converter's currencies, as the visitor's locale writes that currency. */
export function formatConverterValue(value: number, currency: ConverterCurrency, locale?: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(value);
}
