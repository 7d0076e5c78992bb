// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useNewRowsHeld } from './use-new-rows-held';

const rowsOf = (...ids: string[]) => ids.map((id) => ({ id }));

function heldList(initial: { rows: { id: string }[]; listKey: string; settled: boolean }) {
  return renderHook(({ rows, listKey, settled }) => useNewRowsHeld(rows, listKey, settled), {
    initialProps: initial,
  });
}

describe('rows held while the pointer is over a live list', () => {
  it('holds a row that arrives under the pointer, and shows it when the pointer leaves', () => {
    const list = heldList({ rows: rowsOf('a'), listKey: 'all', settled: true });
    act(() => list.result.current.hold());
    list.rerender({ rows: rowsOf('b', 'a'), listKey: 'all', settled: true });
    expect(list.result.current.rows).toEqual(rowsOf('a'));
    expect(list.result.current.held).toBe(1);
    act(() => list.result.current.release());
    expect(list.result.current.rows).toEqual(rowsOf('b', 'a'));
  });

  it('holds from a search’s own rows when the search lands while the pointer is already over the list', () => {
    const list = heldList({ rows: rowsOf('a', 'x'), listKey: 'all', settled: true });
    act(() => list.result.current.hold());
    // The search is sent: the previous list stays on screen until its rows arrive.
    list.rerender({ rows: rowsOf('a', 'x'), listKey: 'search', settled: false });
    list.rerender({ rows: rowsOf('a'), listKey: 'search', settled: true });
    expect(list.result.current.rows).toEqual(rowsOf('a'));
    list.rerender({ rows: rowsOf('b', 'a'), listKey: 'search', settled: true });
    expect(list.result.current.rows).toEqual(rowsOf('a'));
    expect(list.result.current.held).toBe(1);
    act(() => list.result.current.showHeld());
    expect(list.result.current.rows).toEqual(rowsOf('b', 'a'));
    expect(list.result.current.held).toBe(0);
  });
});
