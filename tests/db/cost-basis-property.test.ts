import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connect, createUser, queryAs, signedIn, type CreatedUser } from '../support/db';

/**
 * Whatever the sequence of buys and sells, and whatever method each tax year takes, the matching never
 * consumes more of a lot than was bought, never makes or loses a coin or a cent, and realised + unrealised =
 * the total gain at any price. A fixed seed makes a failing run repeatable.
 */
const people = 12;
const tradesPerPerson = 60;
const methods = ['fifo', 'hifo', 'average'] as const;

let pool: pg.Pool;

beforeAll(() => {
  pool = connect(inject('databaseUrl'));
});

afterAll(async () => {
  await pool.end();
});

/** mulberry32: small, seedable, good enough to pick steps. */
function randomFrom(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const random = randomFrom(28);

/** Quantities in units of 10^-8 coin, kept as integers so the test's own sums are exact. */
const UNITS = 100_000_000n;
const coinText = (units: bigint) => `${units / UNITS}.${(units % UNITS).toString().padStart(8, '0')}`;
const cents = (text: string) => BigInt(text.replace('.', ''));
const centsText = (amount: bigint) => `${amount / 100n}.${(amount % 100n).toString().padStart(2, '0')}`;
/** A quantity the database answers (at most 8 places here) in units of 10^-8. */
function toUnits(text: string): bigint {
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole) * UNITS + BigInt(fraction.padEnd(8, '0'));
}

interface Trade {
  type: 'buy' | 'sell';
  units: bigint;
  amountCents: bigint;
  date: Date;
}

/** A random history over 2023–2025 that never sells more than is held. */
function randomHistory(): Trade[] {
  const trades: Trade[] = [];
  let held = 0n;
  let date = Date.UTC(2023, 0, 1);
  for (let index = 0; index < tradesPerPerson; index += 1) {
    date += Math.floor(random() * 18 * 86_400_000) + 60_000;
    const sell = held > 0n && random() < 0.45;
    const units = sell
      ? BigInt(Math.max(1, Math.floor(Number(held) * (random() < 0.2 ? 1 : random()))))
      : BigInt(Math.floor(random() * 3 * Number(UNITS)) + 1);
    const amountCents = BigInt(Math.floor(random() * 500_000) + 1);
    held += sell ? -units : units;
    trades.push({ type: sell ? 'sell' : 'buy', units, amountCents, date: new Date(date) });
  }
  return trades;
}

async function record(person: CreatedUser, trades: Trade[], coin: string) {
  for (const { type, units, amountCents, date } of trades) {
    await pool.query(
      `insert into public.transactions (user_id, type, amount, status, cryptocurrency, quantity, price, date)
       values ($1, $2, $3, 'complete', $4, $5::numeric, 1, $6)`,
      [person.id, type, centsText(amountCents), coin, coinText(units), date.toISOString()],
    );
  }
}

describe('cost basis for any sequence of buys and sells', () => {
  it('consumes no more than was bought, keeps every coin and cent, and realised + unrealised = total gain', async () => {
    for (let index = 0; index < people; index += 1) {
      const person = await createUser(pool, { deposit: 10_000_000 });
      const histories = { bitcoin: randomHistory(), ethereum: randomHistory() };
      for (const year of [2023, 2024, 2025]) {
        const method = methods[Math.floor(random() * methods.length)] ?? 'fifo';
        await pool.query(
          'insert into public.cost_basis_elections (user_id, from_tax_year, method) values ($1, $2, $3)',
          [person.id, year, method],
        );
      }
      await record(person, histories.bitcoin, 'bitcoin');
      await record(person, histories.ethereum, 'ethereum');

      const disposals = await queryAs<{
        cryptocurrency: string;
        lot_id: string | null;
        quantity: string;
        proceeds: string;
        cost_basis: string;
      }>(
        pool,
        signedIn(person.id),
        `select cryptocurrency, lot_id, quantity::text, proceeds::text, cost_basis::text
         from public.disposals('-infinity', 'infinity')`,
      );
      const open = await queryAs<{
        cryptocurrency: string;
        lot_id: string;
        quantity: string;
        cost_basis: string;
      }>(
        pool,
        signedIn(person.id),
        'select cryptocurrency, lot_id, quantity::text, cost_basis::text from public.open_lots()',
      );
      const lots = await pool.query<{ id: string; cryptocurrency: string; quantity: string; amount: string }>(
        `select id, cryptocurrency, quantity::text, amount::text from public.transactions
         where user_id = $1 and type = 'buy'`,
        [person.id],
      );
      const holdings = await pool.query<{ cryptocurrency: string; quantity: string }>(
        'select cryptocurrency, quantity::text from public.holdings where user_id = $1',
        [person.id],
      );

      for (const lot of lots.rows) {
        const taken = disposals.rows
          .filter((part) => part.lot_id === lot.id)
          .reduce((sum, part) => sum + toUnits(part.quantity), 0n);
        const left = open.rows
          .filter((row) => row.lot_id === lot.id)
          .reduce((sum, row) => sum + toUnits(row.quantity), 0n);
        expect(taken + left, `lot ${lot.id}`).toBe(toUnits(lot.quantity));
      }
      expect(disposals.rows.every((part) => part.lot_id !== null && toUnits(part.quantity) > 0n)).toBe(true);
      expect(open.rows.every((row) => cents(row.cost_basis) >= 0n)).toBe(true);

      for (const [coin, trades] of Object.entries(histories)) {
        const parts = disposals.rows.filter((part) => part.cryptocurrency === coin);
        const openLots = open.rows.filter((row) => row.cryptocurrency === coin);
        const bought = trades.filter((t) => t.type === 'buy').reduce((sum, t) => sum + t.amountCents, 0n);
        const sold = trades.filter((t) => t.type === 'sell').reduce((sum, t) => sum + t.amountCents, 0n);
        const basis = parts.reduce((sum, part) => sum + cents(part.cost_basis), 0n);
        const proceeds = parts.reduce((sum, part) => sum + cents(part.proceeds), 0n);
        const openCost = openLots.reduce((sum, row) => sum + cents(row.cost_basis), 0n);
        const openUnits = openLots.reduce((sum, row) => sum + toUnits(row.quantity), 0n);
        expect(proceeds, `${coin} proceeds`).toBe(sold);
        expect(basis + openCost, `${coin} cost`).toBe(bought);
        // The journal's holdings are the open lots.
        const held = holdings.rows.find((row) => row.cryptocurrency === coin);
        expect(toUnits(held?.quantity ?? '0'), `${coin} held`).toBe(openUnits);
        // At any price (cents per coin), realised + unrealised = proceeds + value held - cost bought.
        const price = BigInt(Math.floor(random() * 10_000_000));
        const value = (openUnits * price) / UNITS;
        const realised = proceeds - basis;
        const unrealised = value - openCost;
        expect(realised + unrealised).toBe(sold + value - bought);
      }
    }
  });
});
