import { useState } from 'react';

/**
 * A live list's rows, with the ones that arrive while the pointer is over its table held back, so no row
 * moves under a click about to land: `hold` when the pointer comes in, `showHeld` to show what came
 * meanwhile (and keep holding), `release` when the pointer leaves. The rows kept are those of the list
 * shown once it has settled (`settled`: not the previous list's rows shown while another page, sort,
 * search or filter loads), so a search that lands under the pointer holds from its own rows on.
 * Rows that change or go still do so at once.
 */
export function useNewRowsHeld<Item extends { id: string }>(
  rows: readonly Item[] | undefined,
  listKey: string,
  settled: boolean,
) {
  const [pointerOver, setPointerOver] = useState(false);
  const [kept, setKept] = useState<{ listKey: string; ids: ReadonlySet<string> }>();
  const keepShown = () => {
    if (rows) setKept({ listKey, ids: new Set(rows.map((row) => row.id)) });
  };
  // The pointer came in, or another list settled under it: from now on its rows are the ones shown.
  if (pointerOver && settled && rows && kept?.listKey !== listKey) keepShown();
  const holding = pointerOver && kept?.listKey === listKey ? kept.ids : undefined;
  const shown = holding && rows ? rows.filter((row) => holding.has(row.id)) : rows;
  return {
    rows: shown,
    /** How many rows wait to be shown. */
    held: (rows?.length ?? 0) - (shown?.length ?? 0),
    hold: () => setPointerOver(true),
    showHeld: keepShown,
    release: () => {
      setPointerOver(false);
      setKept(undefined);
    },
  };
}
