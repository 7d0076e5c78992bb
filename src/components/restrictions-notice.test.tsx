// @vitest-environment jsdom
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createQueryClient } from '@/lib/query-client';
import { RestrictionsNotice } from './restrictions-notice';

/** Stands in for the Supabase client: `my_restrictions` answers what the test sets. */
const answer = vi.hoisted(() => ({ rows: [] as { movement: string; refusal: string | null }[] }));
vi.mock('@/lib/supabase', () => ({
  supabase: { rpc: () => Promise.resolve({ data: answer.rows, error: null }) },
}));

const HELD =
  'Withdrawals are on hold until 27 Nov 2026, 18:00 UTC because your password was changed. To end the hold ' +
  'sooner, contact support.';
const LOCKED_TRADES =
  'Buying and selling are locked because you reported a change you did not make. Contact support to unlock them.';

function renderNotice(movements: ('buy' | 'sell' | 'withdraw')[]) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <p>page</p>
      <RestrictionsNotice userId="person" movements={movements} />
    </QueryClientProvider>,
  );
}

describe('restrictions shown before the work', () => {
  it('tells a held person on the withdraw form that withdrawals wait, and until when', async () => {
    answer.rows = [
      { movement: 'buy', refusal: null },
      { movement: 'sell', refusal: null },
      { movement: 'withdraw', refusal: HELD },
    ];
    renderNotice(['withdraw']);
    expect(await screen.findByTestId('restrictions-notice')).toHaveTextContent(HELD);
  });

  it('says nothing on the buy form when only withdrawals are held', async () => {
    answer.rows = [
      { movement: 'buy', refusal: null },
      { movement: 'withdraw', refusal: HELD },
    ];
    renderNotice(['buy']);
    await screen.findByText('page');
    // The witness: the withdraw form's notice, rendered from the same answer, arrives.
    renderNotice(['withdraw']);
    expect(await screen.findByTestId('restrictions-notice')).toHaveTextContent(HELD);
    expect(screen.getAllByTestId('restrictions-notice')).toHaveLength(1);
  });

  it('names a lock once on the wallet, however many movements it stops', async () => {
    answer.rows = [
      { movement: 'buy', refusal: LOCKED_TRADES },
      { movement: 'sell', refusal: LOCKED_TRADES },
      { movement: 'withdraw', refusal: null },
    ];
    renderNotice(['buy', 'sell', 'withdraw']);
    const notice = await screen.findByTestId('restrictions-notice');
    expect(notice.querySelectorAll('p')).toHaveLength(1);
    expect(notice).toHaveTextContent(LOCKED_TRADES);
  });
});
