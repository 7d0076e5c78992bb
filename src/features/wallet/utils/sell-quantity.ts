import { coinName } from '@domain/coins.ts';
import { outsideLimitsMessage, type TransactionLimits } from '@domain/limits.ts';
import type { MarketCoin } from '@/lib/market';
import type { PortfolioPosition } from './portfolio';

/**
 * Sell quantities as the Sell form handles them: decimal text cut (never rounded up) to the 8 places the app
 * shows coins in, so a quantity sent is never more than the database's exact holding.
 */
export const SELL_QUANTITY_PLACES = 8;

/** `text` (a non-negative decimal, as the database writes numeric) cut to 8 decimal places. */
export function truncateQuantity(text: string): string {
  const [whole = '0', fraction = ''] = text.trim().split('.');
  const kept = fraction.slice(0, SELL_QUANTITY_PLACES).replace(/0+$/, '');
  return kept === '' ? whole : `${whole}.${kept}`;
}

/** The coins a USD value buys back at `price`, cut to 8 decimal places; undefined when it cannot be told. */
export function quantityForUsd(usd: number, price: number | undefined): string | undefined {
  if (price === undefined || !(price > 0) || !Number.isFinite(usd) || usd <= 0) return undefined;
  const scale = 10 ** SELL_QUANTITY_PLACES;
  return truncateQuantity((Math.floor((usd / price) * scale) / scale).toFixed(SELL_QUANTITY_PLACES));
}

/** Whether a typed quantity has at most 8 decimal places. */
export function hasSellQuantityPlaces(text: string): boolean {
  return (text.trim().split('.')[1] ?? '').length <= SELL_QUANTITY_PLACES;
}

/** Whether the person types a quantity of the coin or a USD value. */
export type SellBy = 'quantity' | 'usd';

export interface SellableCoin {
  cryptocurrency: string;
  name: string;
  symbol: string;
  /** The live price shown on the page; undefined while the market list lacks the coin. */
  price: number | undefined;
  /** Coins a new sell request may name, as exact decimal text. */
  available: string;
}

/** A held coin as the Sell dialog needs it, named from the market list when it has the coin. */
export function sellableCoin(position: PortfolioPosition, coin: MarketCoin | undefined): SellableCoin {
  return {
    cryptocurrency: position.cryptocurrency,
    name: coin?.name ?? coinName(position.cryptocurrency),
    symbol: coin?.symbol ?? position.cryptocurrency,
    price: position.price,
    available: position.available,
  };
}

/**
 * What the typed text asks to sell, or why it cannot be sent. A sale's value at the price shown, to the cent,
 * must be within the transaction limits, which the database checks again at its own price with the same words.
 */
export function quantityToSell(
  sellBy: SellBy,
  typed: string,
  coin: SellableCoin,
  limits: TransactionLimits | undefined,
): { quantity: string } | { error: string } {
  const text = typed.trim();
  const value = Number(text);
  if (text === '' || !Number.isFinite(value) || value <= 0) {
    return { error: sellBy === 'usd' ? 'Value must be greater than 0' : 'Quantity must be greater than 0' };
  }
  if (sellBy === 'quantity' && !hasSellQuantityPlaces(text)) {
    return { error: 'Quantity can have at most 8 decimal places' };
  }
  if (sellBy === 'usd' && (text.split('.')[1] ?? '').length > 2) {
    return { error: 'Value can have at most 2 decimal places' };
  }
  const quantity = sellBy === 'usd' ? quantityForUsd(value, coin.price) : text;
  if (quantity === undefined) return { error: `No current price for ${coin.name}` };
  if (Number(quantity) <= 0) return { error: 'Value is less than the smallest quantity that can be sold' };
  const available = truncateQuantity(coin.available);
  if (Number(quantity) > Number(available)) {
    return { error: `You can sell at most ${available} ${coin.symbol.toUpperCase()}` };
  }
  if (limits && coin.price !== undefined) {
    const saleValue = Math.round(Number(quantity) * coin.price * 100) / 100;
    const outside = outsideLimitsMessage(saleValue, limits, 'transaction amount');
    if (outside) return { error: outside };
  }
  return { quantity };
}
