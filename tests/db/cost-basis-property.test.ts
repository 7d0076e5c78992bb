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

/** a / b rounded half up, for amounts that are never negative. */
const roundedHalfUp = (a: bigint, b: bigint) => (2n * a + b) / (2n * b);

interface ReferenceLot {
  id: string;
  date: Date;
  units: bigint;
  costCents: bigint;
  /** Whole dollars per coin: the cost per coin is exact, so lots of one price tie. */
  price: bigint;
}

/**
 * The matching written sale by sale, as the documentation says it: each sale takes from the open lots bought
 * before it, the oldest first (fifo) or the highest cost per coin first, the older on a tie (hifo); a part of
 * a lot carries its cost by quantity rounded half up, the part that empties it what is left; the proceeds
 * split the same way, the last part taking the rest.
 */
function referenceMatching(
  lots: ReferenceLot[],
  sales: { id: string; date: Date; units: bigint; amountCents: bigint }[],
  methodOf: (year: number) => 'fifo' | 'hifo',
) {
  const open = lots.map((lot) => ({ ...lot }));
  const parts: { sale: string; lot: string; units: bigint; proceeds: bigint; cost: bigint }[] = [];
  for (const sale of sales) {
    const hifo = methodOf(sale.date.getUTCFullYear()) === 'hifo';
    let wanted = sale.units;
    let proceedsLeft = sale.amountCents;
    while (wanted > 0n) {
      const available = open.filter((lot) => lot.date < sale.date && lot.units > 0n);
      const lot = hifo
        ? available.reduce((best, next) => (next.price > best.price ? next : best))
        : available[0];
      if (!lot) throw new Error('the history never sells more than is held');
      const units = wanted < lot.units ? wanted : lot.units;
      const cost = units === lot.units ? lot.costCents : roundedHalfUp(lot.costCents * units, lot.units);
      wanted -= units;
      const proceeds = wanted === 0n ? proceedsLeft : roundedHalfUp(sale.amountCents * units, sale.units);
      proceedsLeft -= proceeds;
      lot.costCents -= cost;
      lot.units -= units;
      parts.push({ sale: sale.id, lot: lot.id, units, proceeds, cost });
    }
  }
  return { parts, open: open.filter((lot) => lot.units > 0n) };
}

describe('highest cost first, against the matching written sale by sale', () => {
  const seeded = randomFrom(2828);
  const pick = (count: number) => Math.floor(seeded() * count);

  it('gives every sale the same parts, proceeds and costs, after fifo years too, older lots first on a tie', async () => {
    for (let index = 0; index < 4; index += 1) {
      const person = await createUser(pool, { deposit: 10_000_000 });
      // hifo most years, a fifo year in between for most people: hifo then matches what fifo left.
      const years = [2023, 2024, 2025].map((year) => ({
        year,
        method: index === 0 || pick(3) > 0 ? ('hifo' as const) : ('fifo' as const),
      }));
      for (const { year, method } of years) {
        await pool.query(
          'insert into public.cost_basis_elections (user_id, from_tax_year, method) values ($1, $2, $3)',
          [person.id, year, method],
        );
      }
      const lots: ReferenceLot[] = [];
      const sales: { id: string; date: Date; units: bigint; amountCents: bigint }[] = [];
      let held = 0n;
      let date = Date.UTC(2023, 0, 1);
      for (let trade = 0; trade < 90; trade += 1) {
        date += pick(12 * 86_400_000) + 60_000;
        const sell = held > 0n && seeded() < 0.45;
        // Hundredths of a coin at one of four whole-dollar prices: ties are frequent.
        const units = sell
          ? BigInt(Math.max(1, Math.floor(Number(held / 1_000_000n) * (seeded() < 0.2 ? 1 : seeded())))) *
            1_000_000n
          : BigInt(1 + pick(300)) * 1_000_000n;
        const price = BigInt([100, 250, 400, 550][pick(4)] ?? 100);
        const amountCents = sell ? BigInt(1 + pick(500_000)) : (price * 100n * units) / UNITS;
        const { rows } = await pool.query<{ id: string }>(
          `insert into public.transactions (user_id, type, amount, status, cryptocurrency, quantity, price, date)
           values ($1, $2, $3, 'complete', 'bitcoin', $4::numeric, 1, $5) returning id`,
          [
            person.id,
            sell ? 'sell' : 'buy',
            centsText(amountCents),
            coinText(units),
            new Date(date).toISOString(),
          ],
        );
        const id = rows[0]?.id ?? '';
        if (sell) sales.push({ id, date: new Date(date), units, amountCents });
        else lots.push({ id, date: new Date(date), units, costCents: amountCents, price });
        held += sell ? -units : units;
      }
      const methodOf = (year: number) => years.filter((y) => y.year <= year).at(-1)?.method ?? 'fifo';
      const expected = referenceMatching(lots, sales, methodOf);

      const disposals = await queryAs<{
        sale_id: string;
        lot_id: string;
        quantity: string;
        proceeds: string;
        cost_basis: string;
      }>(
        pool,
        signedIn(person.id),
        `select sale_id, lot_id, quantity::text, proceeds::text, cost_basis::text
         from public.disposals('-infinity', 'infinity')`,
      );
      const open = await queryAs<{ lot_id: string; quantity: string; cost_basis: string }>(
        pool,
        signedIn(person.id),
        'select lot_id, quantity::text, cost_basis::text from public.open_lots()',
      );
      const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      const partKey = (part: { sale: string; lot: string }) => `${part.sale} ${part.lot}`;
      expect(
        disposals.rows
          .map((row) => ({
            sale: row.sale_id,
            lot: row.lot_id,
            units: toUnits(row.quantity),
            proceeds: cents(row.proceeds),
            cost: cents(row.cost_basis),
          }))
          .sort((a, b) => byKey(partKey(a), partKey(b))),
        `person ${index} (${years.map((y) => y.method).join(', ')})`,
      ).toEqual(expected.parts.sort((a, b) => byKey(partKey(a), partKey(b))));
      expect(
        open.rows.map((row) => ({
          lot: row.lot_id,
          units: toUnits(row.quantity),
          cost: cents(row.cost_basis),
        })),
      ).toEqual(expected.open.map((lot) => ({ lot: lot.id, units: lot.units, cost: lot.costCents })));
    }
  });
});
