// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { NEWEST_FIRST, type ListDefinition } from '../api/list-state';
import { useListUrlState } from '../hooks/use-list-url-state';
import { ListToolbar } from './list-toolbar';

const definition: ListDefinition = { sortColumns: ['date'], defaultSort: NEWEST_FIRST, filters: {} };

/** A list's toolbar with the pager's Next button beside it, and the address they write to. */
function ListWithPager() {
  const list = useListUrlState(definition);
  return (
    <>
      <ListToolbar list={list} dateRange={false} />
      <button type="button" onClick={() => list.setPage(list.state.page + 1)}>
        Next page
      </button>
      <output aria-label="Address">{useLocation().search}</output>
    </>
  );
}

describe('the admin list search', () => {
  // The 300 ms pause is counted on a fake clock: a busy machine's slow typing never spans it by chance.
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });

  it('applies what was typed before a click within its 300 ms pause acts, so the search never overtakes the click', async () => {
    render(
      <MemoryRouter>
        <ListWithPager />
      </MemoryRouter>,
    );
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    await user.type(screen.getByRole('searchbox', { name: 'Search by name or e-mail' }), 'ann');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(screen.getByRole('status', { name: 'Address' })).toHaveTextContent('?q=ann&page=2');

    // The pause ends: nothing is searched again, the page clicked stays.
    act(() => vi.advanceTimersByTime(400));
    expect(screen.getByRole('status', { name: 'Address' })).toHaveTextContent('?q=ann&page=2');
  });
});
