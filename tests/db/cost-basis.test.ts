import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  anon,
  connect,
  createUser,
  errorOf,
  queryAs,
  signedIn,
  signedInWithPasswordOnly,
  type CreatedUser,
} from '../support/db';

/**
 * Cost basis in SQL: every approved buy is a lot, every approved sell is matched to lots by the person's method
 * for the sale's tax year, read from the journal. The figures below are worked out by hand (docs/features.md,
 * "Cost basis": parts of a lot carry its cost by quantity, rounded half up to the cent, the part that empties a
 * lot carrying what is left).
 */
let pool: pg.Pool;

beforeAll(() => {
  pool = connect(inject('databaseUrl'));
});

afterAll(async () => {
  await pool.end();
});

/** A completed buy or sell of bitcoin on a given day, as an approval leaves it, written by the operator. */
async function trade(
  person: CreatedUser,
  type: 'buy' | 'sell',
  date: string,
  quantity: string,
  amount: string,
  cryptocurrency = 'bitcoin',
): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `insert into public.transactions (user_id, type, amount, status, cryptocurrency, quantity, price, date)
     values ($1, $2, $3, 'complete', $4, $5, round($3::numeric / $5::numeric, 8), $6) returning id`,
    [person.id, type, amount, cryptocurrency, quantity, date],
  );
  return rows[0]?.id ?? '';
}

async function elect(person: CreatedUser, fromTaxYear: number, method: 'fifo' | 'hifo' | 'average') {
  await pool.query(
    `insert into public.cost_basis_elections (user_id, from_tax_year, method) values ($1, $2, $3)`,
    [person.id, fromTaxYear, method],
  );
}

interface GainLine {
  sale_id: string;
  lot_id: string | null;
  date_acquired: string | null;
  date_sold: string;
  quantity: string;
  proceeds: string;
  cost_basis: string;
  gain: string;
  term: string | null;
  method: string;
}

async function gainsOf(person: CreatedUser, taxYear: number): Promise<GainLine[]> {
  const { rows } = await queryAs<GainLine>(
    pool,
    signedIn(person.id),
    `select sale_id, lot_id, date_acquired::text, date_sold::text, quantity::text, proceeds::text,
       cost_basis::text, gain::text, term, method::text
     from public.realised_gains($1)`,
    [taxYear],
  );
  return rows;
}

async function openLotsOf(person: CreatedUser) {
  const { rows } = await queryAs<{ lot_id: string; quantity: string; cost_basis: string }>(
    pool,
    signedIn(person.id),
    'select lot_id, quantity::text, cost_basis::text from public.open_lots()',
  );
  return rows;
}

/** Two buys, then two sells: the first partial, the second spanning the first lot's rest and the second lot. */
async function twoBuysTwoSells() {
  const person = await createUser(pool, { deposit: 10_000 });
  const first = await trade(person, 'buy', '2024-01-10T12:00:00Z', '1', '100.00');
  const second = await trade(person, 'buy', '2024-03-01T12:00:00Z', '2', '300.00');
  const sale1 = await trade(person, 'sell', '2024-04-01T12:00:00Z', '0.5', '80.00');
  const sale2 = await trade(person, 'sell', '2024-05-01T12:00:00Z', '1', '200.00');
  return { person, first, second, sale1, sale2 };
}

const line = (
  sale: string,
  lot: string,
  quantity: string,
  proceeds: string,
  cost: string,
  gain: string,
): Partial<GainLine> => ({ sale_id: sale, lot_id: lot, quantity, proceeds, cost_basis: cost, gain });

describe('first in, first out (the default)', () => {
  it('takes the oldest lot first: several sells consume one lot, and a sell spans two lots', async () => {
    const { person, first, second, sale1, sale2 } = await twoBuysTwoSells();
    const gains = await gainsOf(person, 2024);
    expect(gains).toMatchObject([
      {
        ...line(sale1, first, '0.5', '80.00', '50.00', '30.00'),
        method: 'fifo',
        date_acquired: '2024-01-10',
      },
      line(sale2, first, '0.5', '100.00', '50.00', '50.00'),
      line(sale2, second, '0.5', '100.00', '75.00', '25.00'),
    ]);
    expect(await openLotsOf(person)).toEqual([{ lot_id: second, quantity: '1.5', cost_basis: '225.00' }]);
  });

  it('rounds a part of a lot half up to the cent and gives the part that empties it what is left', async () => {
    const person = await createUser(pool, { deposit: 1_000 });
    const lot = await trade(person, 'buy', '2024-02-01T12:00:00Z', '3', '100.00');
    const sales = [
      await trade(person, 'sell', '2024-02-02T12:00:00Z', '1', '40.00'),
      await trade(person, 'sell', '2024-02-03T12:00:00Z', '1', '40.00'),
      await trade(person, 'sell', '2024-02-04T12:00:00Z', '1', '40.00'),
    ];
    const gains = await gainsOf(person, 2024);
    // 100 / 3 = 33.333… → 33.33, then 66.67 × 1/2 = 33.335 → 33.34, then the 33.33 left.
    expect(gains.map((gain) => [gain.sale_id, gain.lot_id, gain.cost_basis])).toEqual([
      [sales[0], lot, '33.33'],
      [sales[1], lot, '33.34'],
      [sales[2], lot, '33.33'],
    ]);
    expect(await openLotsOf(person)).toEqual([]);
  });
});

describe('highest cost first', () => {
  it('takes the open lot with the highest cost per coin, whatever its age', async () => {
    const { person, first, second, sale1, sale2 } = await twoBuysTwoSells();
    await elect(person, 2024, 'hifo');
    expect(await gainsOf(person, 2024)).toMatchObject([
      { ...line(sale1, second, '0.5', '80.00', '75.00', '5.00'), method: 'hifo' },
      line(sale2, second, '1', '200.00', '150.00', '50.00'),
    ]);
    expect(await openLotsOf(person)).toEqual([
      { lot_id: first, quantity: '1', cost_basis: '100.00' },
      { lot_id: second, quantity: '0.5', cost_basis: '75.00' },
    ]);
  });
});

describe('average cost', () => {
  it('bases each sale on its share of the pool, after mixed buys and sells, taking quantities oldest first', async () => {
    const { person, first, second, sale1, sale2 } = await twoBuysTwoSells();
    await elect(person, 2024, 'average');
    const third = await trade(person, 'buy', '2024-06-01T12:00:00Z', '1.5', '450.00');
    const sale3 = await trade(person, 'sell', '2024-07-01T12:00:00Z', '1.5', '600.00');
    expect(await gainsOf(person, 2024)).toMatchObject([
      // Pool 3 coins for 400.00: 0.5 of it is 66.666… → 66.67; 333.33 left for 2.5 coins.
      { ...line(sale1, first, '0.5', '80.00', '66.67', '13.33'), method: 'average' },
      // 333.33 × 1 / 2.5 = 133.332 → 133.33, split 66.665 → 66.67 and the 66.66 left; 200.00 left for 1.5.
      line(sale2, first, '0.5', '100.00', '66.67', '33.33'),
      line(sale2, second, '0.5', '100.00', '66.66', '33.34'),
      // A buy of 1.5 for 450.00 makes the pool 3 coins for 650.00: half of it is 325.00.
      line(sale3, second, '1.5', '600.00', '325.00', '275.00'),
    ]);
    expect(await openLotsOf(person)).toEqual([{ lot_id: third, quantity: '1.5', cost_basis: '325.00' }]);
  });

  it('hands the average on to the lots when a later year takes another method', async () => {
    const person = await createUser(pool, { deposit: 10_000 });
    const first = await trade(person, 'buy', '2024-01-10T12:00:00Z', '1', '100.00');
    const second = await trade(person, 'buy', '2024-03-01T12:00:00Z', '1', '300.00');
    await trade(person, 'sell', '2024-04-01T12:00:00Z', '0.5', '100.00');
    await elect(person, 2024, 'average');
    await elect(person, 2025, 'hifo');
    const later = await trade(person, 'sell', '2025-02-01T12:00:00Z', '0.5', '150.00');
    // The pool was 1.5 coins for 300.00: each open coin costs 200.00, so the first lot's half costs 100.00.
    expect(await gainsOf(person, 2025)).toMatchObject([
      { ...line(later, first, '0.5', '150.00', '100.00', '50.00'), method: 'hifo' },
    ]);
    expect(await openLotsOf(person)).toEqual([{ lot_id: second, quantity: '1', cost_basis: '200.00' }]);
  });
});

describe('a sale beyond every lot (an operator backdating a sell)', () => {
  it.each(['fifo', 'hifo', 'average'] as const)(
    'gives the part no lot and no cost under %s, even after a sale that took a lot',
    async (method) => {
      const person = await createUser(pool, { deposit: 10_000 });
      await elect(person, 2024, method);
      const lot = await trade(person, 'buy', '2024-03-01T12:00:00Z', '1', '100.00');
      const emptying = await trade(person, 'sell', '2024-04-01T12:00:00Z', '1', '150.00');
      // Written after a later buy, so the coins were held when it was recorded, but dated before that buy.
      const later = await trade(person, 'buy', '2024-06-01T12:00:00Z', '0.5', '40.00');
      const beyond = await trade(person, 'sell', '2024-05-01T12:00:00Z', '0.5', '80.00');
      expect(await gainsOf(person, 2024)).toMatchObject([
        { ...line(emptying, lot, '1', '150.00', '100.00', '50.00'), method },
        {
          sale_id: beyond,
          lot_id: null,
          date_acquired: null,
          term: null,
          quantity: '0.5',
          proceeds: '80.00',
          cost_basis: '0.00',
          gain: '80.00',
        },
      ]);
      expect(await openLotsOf(person)).toEqual([{ lot_id: later, quantity: '0.5', cost_basis: '40.00' }]);
    },
  );

  it.each(['fifo', 'hifo'] as const)(
    'reports it under %s in a year after an average year sold every coin',
    async (method) => {
      const person = await createUser(pool, { deposit: 10_000 });
      await elect(person, 2024, 'average');
      await elect(person, 2025, method);
      await trade(person, 'buy', '2024-03-01T12:00:00Z', '1', '100.00');
      await trade(person, 'sell', '2024-04-01T12:00:00Z', '1', '150.00');
      const later = await trade(person, 'buy', '2025-06-01T12:00:00Z', '0.5', '40.00');
      const beyond = await trade(person, 'sell', '2025-05-01T12:00:00Z', '0.5', '80.00');
      expect(await gainsOf(person, 2025)).toMatchObject([
        { sale_id: beyond, lot_id: null, quantity: '0.5', proceeds: '80.00', cost_basis: '0.00', method },
      ]);
      expect(await openLotsOf(person)).toEqual([{ lot_id: later, quantity: '0.5', cost_basis: '40.00' }]);
    },
  );
});

describe('corrections in the journal', () => {
  it('nets a row over its entries: an amended buy costs what it costs now, a removed sale is gone', async () => {
    const { person, first, second, sale1, sale2 } = await twoBuysTwoSells();
    await pool.query(`update public.transactions set amount = 120.00 where id = $1`, [first]);
    await pool.query(`delete from public.transactions where id = $1`, [sale1]);
    // The first lot (1 coin, now 120.00) gives the whole sale its cost; the second lot is untouched.
    expect(await gainsOf(person, 2024)).toMatchObject([line(sale2, first, '1', '200.00', '120.00', '80.00')]);
    expect(await openLotsOf(person)).toEqual([{ lot_id: second, quantity: '2', cost_basis: '300.00' }]);
  });
});

describe('entries awaiting seal', () => {
  /** Runs `work` while another connection holds the chain's head, as a busy sealer does; releases it after. */
  async function whileTheHeadIsHeld<T>(work: () => Promise<T>): Promise<T> {
    const holder = await pool.connect();
    try {
      await holder.query('begin');
      await holder.query('select from ledger.head for update');
      return await work();
    } finally {
      await holder.query('rollback');
      holder.release();
    }
  }

  it('counts a person’s trades and corrections at once, before the sealer chains them', async () => {
    const person = await createUser(pool, { deposit: 10_000 });
    const first = await trade(person, 'buy', '2024-01-10T12:00:00Z', '1', '100.00');
    const sale1 = await trade(person, 'sell', '2024-04-01T12:00:00Z', '0.5', '80.00');
    const expected = async (second: string, sale2: string) => {
      expect(await gainsOf(person, 2024)).toMatchObject([
        line(sale1, first, '0.5', '80.00', '60.00', '20.00'),
        line(sale2, first, '0.5', '100.00', '60.00', '40.00'),
        line(sale2, second, '0.5', '100.00', '75.00', '25.00'),
      ]);
      expect(await openLotsOf(person)).toEqual([{ lot_id: second, quantity: '1.5', cost_basis: '225.00' }]);
    };

    const [second, sale2] = await whileTheHeadIsHeld(async () => {
      const second = await trade(person, 'buy', '2024-03-01T12:00:00Z', '2', '300.00');
      const sale2 = await trade(person, 'sell', '2024-05-01T12:00:00Z', '1', '200.00');
      await pool.query(`update public.transactions set amount = 120.00 where id = $1`, [first]);
      const { rows } = await pool.query<{ queued: number }>(
        'select count(*)::int as queued from ledger.unsealed_entries where transaction_id = any($1)',
        [[first, second, sale2]],
      );
      expect(rows).toEqual([{ queued: 3 }]);
      await expected(second, sale2);
      return [second, sale2];
    });

    await pool.query('select ledger.seal()');
    await expected(second, sale2);
  });
});

describe('tax years and holding periods', () => {
  it('matches each year by the method in force then', async () => {
    const { person, second } = await twoBuysTwoSells();
    await elect(person, 2025, 'hifo');
    const lot = await trade(person, 'buy', '2025-01-05T12:00:00Z', '1', '50.00');
    const sale = await trade(person, 'sell', '2025-01-06T12:00:00Z', '1', '120.00');
    expect((await gainsOf(person, 2024)).map((gain) => gain.method)).toEqual(['fifo', 'fifo', 'fifo']);
    // The lot bought at 150 a coin beats the newer one at 50.
    expect(await gainsOf(person, 2025)).toMatchObject([
      { ...line(sale, second, '1', '120.00', '150.00', '-30.00'), method: 'hifo' },
    ]);
    expect((await openLotsOf(person)).map((open) => open.lot_id)).toEqual([second, lot]);
  });

  it('is long-term only past the threshold of days, counted in the person’s time zone', async () => {
    const person = await createUser(pool, { deposit: 1_000 });
    await trade(person, 'buy', '2023-01-10T12:00:00Z', '2', '100.00');
    await trade(person, 'sell', '2024-01-10T12:00:00Z', '1', '60.00');
    await trade(person, 'sell', '2024-01-11T12:00:00Z', '1', '60.00');
    expect((await gainsOf(person, 2024)).map((gain) => [gain.date_sold, gain.term])).toEqual([
      ['2024-01-10', 'short'],
      ['2024-01-11', 'long'],
    ]);
  });

  it('puts a sale in the tax year of the person’s time zone', async () => {
    const person = await createUser(pool, { deposit: 1_000 });
    await trade(person, 'buy', '2024-06-01T12:00:00Z', '1', '100.00');
    const sale = await trade(person, 'sell', '2024-12-31T20:00:00Z', '1', '110.00');
    expect((await gainsOf(person, 2024)).map((gain) => gain.sale_id)).toEqual([sale]);
    await queryAs(pool, signedIn(person.id), `select public.set_tax_time_zone('Asia/Tokyo')`);
    expect(await gainsOf(person, 2024)).toEqual([]);
    expect(await gainsOf(person, 2025)).toMatchObject([{ sale_id: sale, date_sold: '2025-01-01' }]);
  });
});

describe('choosing a method', () => {
  it('applies from the next tax year, so this year’s report never changes', async () => {
    const { person } = await twoBuysTwoSells();
    const { rows } = await queryAs<{ from_year: number }>(
      pool,
      signedIn(person.id),
      `select public.choose_cost_basis_method('hifo') as from_year`,
    );
    const thisYear = new Date().getUTCFullYear();
    expect(rows).toEqual([{ from_year: thisYear + 1 }]);
    const elections = await queryAs(
      pool,
      signedIn(person.id),
      'select from_tax_year, method::text from public.cost_basis_elections',
    );
    expect(elections.rows).toEqual([{ from_tax_year: thisYear + 1, method: 'hifo' }]);
  });

  it('refuses an unknown time zone and changes nothing', async () => {
    const person = await createUser(pool);
    const error = await errorOf(
      queryAs(pool, signedIn(person.id), `select public.set_tax_time_zone('Mars/Olympus')`),
    );
    expect(error.message).toBe('Unknown time zone: Mars/Olympus');
    const { rows } = await pool.query('select * from public.tax_settings where user_id = $1', [person.id]);
    expect(rows).toEqual([]);
  });
});

describe('who reads the matching', () => {
  it('is each person’s own: another person reads none of it', async () => {
    const { person } = await twoBuysTwoSells();
    const stranger = await createUser(pool);
    expect(await gainsOf(stranger, 2024)).toEqual([]);
    expect(await openLotsOf(stranger)).toEqual([]);
    expect((await gainsOf(person, 2024)).length).toBe(3);
  });

  it('is refused to visitors and, below aal2, to a person with a factor', async () => {
    const holder = await createUser(pool, { twoFactor: true, deposit: 100 });
    await trade(holder, 'buy', '2024-01-10T12:00:00Z', '1', '10.00');
    expect((await errorOf(queryAs(pool, anon, 'select * from public.realised_gains(2024)'))).code).toBe(
      '42501',
    );
    const belowAal2 = await errorOf(
      queryAs(pool, signedInWithPasswordOnly(holder.id), 'select * from public.open_lots()'),
    );
    expect(belowAal2.message).toBe('Enter the code from your authenticator app first');
    expect(await openLotsOf(holder)).toHaveLength(1);
  });
});
