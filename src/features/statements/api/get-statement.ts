import { useQuery } from '@tanstack/react-query';
import { startOfDay } from '@/lib/calendar-day';
import { supabase } from '@/lib/supabase';
import { STATEMENT_FAILED_MESSAGE } from './statements-messages';

/** A statement's period: calendar days in the person's own time zone, both included. */
export interface StatementPeriod {
  from: string;
  to: string;
}

export interface StatementEntry {
  id: string;
  date: string;
  type: string;
  status: string;
  cryptocurrency: string | null;
  /** Coins bought or sold, and the USD price of one they filled at (null for deposits and withdrawals). */
  quantity: number | null;
  price: number | null;
  amount: number;
  /** The USD balance after this entry: the opening balance plus every completed entry up to this one. */
  balance: number;
}

export interface Statement {
  holderName: string;
  /** The USD balance before the period: every completed entry dated earlier. */
  openingBalance: number;
  /** The opening balance plus the period's completed entries. */
  closingBalance: number;
  entries: StatementEntry[];
}

/** Rows per request: PostgREST's usual `max-rows` on hosted projects. */
const CHUNK_SIZE = 1_000;

/** Every row of a query, a chunk at a time (`range` gives the chunk's bounds). */
async function readAll<Row>(
  chunk: (start: number, end: number) => PromiseLike<{ data: Row[] | null; error: unknown }>,
): Promise<Row[]> {
  const rows: Row[] = [];
  for (let start = 0; ; start += CHUNK_SIZE) {
    const { data, error } = await chunk(start, start + CHUNK_SIZE - 1);
    if (error || !data) throw new Error(STATEMENT_FAILED_MESSAGE, { cause: error });
    rows.push(...data);
    if (data.length < CHUNK_SIZE) return rows;
  }
}

/** Whole cents of a USD amount as the database stores it (numeric, two decimals at most). */
const cents = (amount: number | string) => Math.round(Number(amount) * 100);

/** What one entry adds to the balance, in cents, as the ledger counts it: completed entries only. */
const ledgerEffect = ({ type, status, amount }: { type: string; status: string; amount: number | string }) =>
  status !== 'complete' ? 0 : type === 'deposit' || type === 'sell' ? cents(amount) : -cents(amount);

/**
 * The signed-in person's statement of a period: their name, the balance before and after it, and the
 * period's transactions oldest first, every one of them; row-level security limits them to their own.
 */
export async function getStatement(userId: string, { from, to }: StatementPeriod): Promise<Statement> {
  const [profile, earlier, rows] = await Promise.all([
    supabase.from('profiles').select('full_name').eq('id', userId).maybeSingle(),
    readAll((start, end) =>
      supabase
        .from('transactions')
        .select('type, status, amount::text')
        .eq('status', 'complete')
        .lt('date', startOfDay(from))
        .order('id', { ascending: true })
        .range(start, end),
    ),
    readAll((start, end) =>
      supabase
        .from('transactions')
        .select('id, date, type, status, cryptocurrency, quantity, price, amount')
        .gte('date', startOfDay(from))
        .lt('date', startOfDay(to, 1))
        .order('date', { ascending: true })
        .order('id', { ascending: true })
        .range(start, end),
    ),
  ]);
  if (profile.error) throw new Error(STATEMENT_FAILED_MESSAGE, { cause: profile.error });
  const opening = earlier.reduce((total, entry) => total + ledgerEffect(entry), 0);
  let balance = opening;
  const entries = rows.map((row) => {
    balance += ledgerEffect(row);
    // numeric arrives as a number or, past double precision, a string.
    return {
      ...row,
      amount: Number(row.amount),
      quantity: row.quantity === null ? null : Number(row.quantity),
      price: row.price === null ? null : Number(row.price),
      balance: balance / 100,
    };
  });
  return {
    holderName: profile.data?.full_name ?? '',
    openingBalance: opening / 100,
    closingBalance: balance / 100,
    entries,
  };
}

export function useStatement(userId: string, period: StatementPeriod) {
  return useQuery({ queryKey: ['statement', userId, period], queryFn: () => getStatement(userId, period) });
}
