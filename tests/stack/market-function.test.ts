import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { callerAt } from '../support/from-address';

/** The landing's query, as the browser sends it (no headers: a CORS "simple" request). */
const query = 'vs_currency=usd&order=market_cap_desc&per_page=10&page=1&sparkline=false';

interface Coin {
  id: string;
  symbol: string;
  image: string;
  current_price: number;
  market_cap_rank: number;
}

const marketUrl = (search: string) => `${inject('apiUrl')}/functions/v1/market/coins/markets?${search}`;
const market = (search: string, init?: RequestInit) => fetch(marketUrl(search), init);

describe('the market function on the local stack', () => {
  it('answers a visitor without a session with the top 10 coins by market cap, marked simulated', async () => {
    const response = await market(query, { headers: { Origin: 'http://localhost:5173' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-market-source')).toBe('simulator');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toContain('x-market-source');
    const coins = (await response.json()) as Coin[];
    expect(coins).toHaveLength(10);
    expect(coins.map((coin) => coin.market_cap_rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(coins.map((coin) => coin.id)).toEqual(expect.arrayContaining(['bitcoin', 'ethereum', 'tether']));
  });

  it('serves the coin logos from the local stack', async () => {
    const [bitcoin] = (await (await market(query)).json()) as Coin[];
    expect(bitcoin?.image).toBe(`${inject('apiUrl')}/simulator/images/bitcoin.png`);
    const logo = await fetch(bitcoin?.image ?? '');
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/png');
  });

  it('answers repeated visits from its cache with the same prices', async () => {
    const first = (await (await market(query)).json()) as Coin[];
    const again = await market(query);
    expect(again.headers.get('x-market-cache')).toBe('hit');
    expect(((await again.json()) as Coin[]).map((coin) => coin.current_price)).toEqual(
      first.map((coin) => coin.current_price),
    );
  });

  it('refuses a query it would not pass on', async () => {
    const response = await market(`${query}&callback=steal`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'Unsupported parameter: callback' });
  });

  // A loaded machine makes the gateway's loop late, and it answers 503 with Retry-After (its overload
  // rule, tested in tests/faults): these callers retry then, as the app's client does.
  it('answers 200 visitors who arrive at once, each from their own address', async () => {
    const visitors = Array.from({ length: 200 }, (_, index) => callerAt(`127.0.1.${index + 1}`));
    const answers = await Promise.all(visitors.map((visitor) => visitor.getServed(marketUrl(query))));
    for (const visitor of visitors) visitor.close();
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
  });

  it('keeps the prices up under an anonymous flood of distinct queries, refusing each one it would not pass on', async () => {
    // The attacker's address is its connection's: a different X-Forwarded-For on each request escapes nothing.
    const attacker = callerAt('127.0.0.66');
    const statuses = new Map<number, number>();
    for (let batch = 0; batch < 8; batch += 1) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          attacker.getServed(marketUrl(`vs_currency=usd&per_page=${batch * 50 + index + 11}`), {
            'X-Forwarded-For': `198.51.100.${index + 1}`,
          }),
        ),
      );
      for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    }
    attacker.close();
    // Invalid until the address's allowance is spent, then refused before even being read.
    expect([...statuses.keys()].sort()).toEqual([400, 429]);
    const visitor = callerAt('127.0.0.9');
    const landing = await visitor.getServed(marketUrl(query));
    visitor.close();
    expect(landing.status).toBe(200);
    expect(JSON.parse(landing.body) as Coin[]).toHaveLength(10);
  });
});

describe('price snapshots', () => {
  const db = new pg.Pool({ connectionString: inject('databaseUrl'), max: 1 });
  afterAll(() => db.end());

  it('records the prices it answers with, so the database prices approvals with them', async () => {
    // Other test files write bitcoin's current price as the operator (an approval needs one), which may
    // take this minute before the function does; every other coin is the function's alone.
    const visitor = callerAt('127.0.0.20');
    const answer = await visitor.getServed(marketUrl(query));
    visitor.close();
    const coins = (JSON.parse(answer.body) as Coin[]).filter((coin) => coin.id !== 'bitcoin');
    expect(coins).toHaveLength(9);
    const { rows } = await db.query<{ cryptocurrency: string; price: number; age_seconds: number }>(
      `select cryptocurrency, price::float8 as price, extract(epoch from now() - captured_at)::int as age_seconds
       from public.latest_prices where cryptocurrency = any($1::text[]) order by cryptocurrency`,
      [coins.map((coin) => coin.id)],
    );
    expect(rows.map(({ cryptocurrency, price }) => ({ cryptocurrency, price }))).toEqual(
      coins
        .map((coin) => ({ cryptocurrency: coin.id, price: coin.current_price }))
        .sort((a, b) => a.cryptocurrency.localeCompare(b.cryptocurrency)),
    );
    // Recorded when the answer was fetched: within the cache's minute (and the minute it is rounded to).
    expect(Math.max(...rows.map((row) => row.age_seconds))).toBeLessThan(150);
  });
});
