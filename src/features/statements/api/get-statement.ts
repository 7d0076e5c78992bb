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
  amount: number;
}

/** Rows per request: PostgREST's usual `max-rows` on hosted projects. */
const CHUNK_SIZE = 1_000;

/**
 * The signed-in person's transactions of the period, oldest first, every one of them (a chunk at a
 * time); row-level security limits them to the person's own.
 */
export async function getStatement({ from, to }: StatementPeriod): Promise<StatementEntry[]> {
  const entries: StatementEntry[] = [];
  for (let start = 0; ; start += CHUNK_SIZE) {
    const { data, error } = await supabase
      .from('transactions')
      .select('id, date, type, status, cryptocurrency, amount')
      .gte('date', startOfDay(from))
      .lt('date', startOfDay(to, 1))
      .order('date', { ascending: true })
      .order('id', { ascending: true })
      .range(start, start + CHUNK_SIZE - 1);
    if (error) throw new Error(STATEMENT_FAILED_MESSAGE, { cause: error });
    // numeric arrives as a number or, past double precision, a string.
    entries.push(...data.map((row) => ({ ...row, amount: Number(row.amount) })));
    if (data.length < CHUNK_SIZE) return entries;
  }
}

export function useStatement(userId: string, period: StatementPeriod) {
  return useQuery({ queryKey: ['statement', userId, period], queryFn: () => getStatement(period) });
}
