import { useState } from 'react';

/**
 * A live list's rows, with the ones that arrive while the pointer is over its table held back, so no row
 * moves under a click about to land: `hold` when the pointer comes in (the rows shown then are the ones
 * kept), `showHeld` to show what came meanwhile (and keep holding), `release` when the pointer leaves.
 * Rows that change or go still do so at once. Another page, sort, search or filter (`listKey`) holds nothing.
 */
export function useNewRowsHeld<Item extends { id: string }>(
  rows: readonly Item[] | undefined,
  listKey: string,
) {
  const [kept, setKept] = useState<{ listKey: string; ids: ReadonlySet<string> }>();
  const holding = kept?.listKey === listKey ? kept.ids : undefined;
  const shown = holding && rows ? rows.filter((row) => holding.has(row.id)) : rows;
  const keepShown = () => {
    if (rows) setKept({ listKey, ids: new Set(rows.map((row) => row.id)) });
  };
  return {
    rows: shown,
    /** How many rows wait to be shown. */
    held: (rows?.length ?? 0) - (shown?.length ?? 0),
    hold: keepShown,
    showHeld: keepShown,
    release: () => setKept(undefined),
  };
}
