// @vitest-environment jsdom
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createQueryClient } from '@/lib/query-client';
import { SecurityHoldWarning } from './security-hold-warning';

/** Stands in for the Supabase client: the settings say withdrawals wait 24 hours after a security change. */
vi.mock('@/lib/supabase', () => ({
  supabase: {
    from: () => ({
      select: () => ({
        maybeSingle: () => Promise.resolve({ data: { security_hold_hours: 24 }, error: null }),
      }),
    }),
  },
}));

describe('the security hold, said before the change', () => {
  it('warns on the account page that a password or two-factor change makes withdrawals wait 24 hours', async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <SecurityHoldWarning />
      </QueryClientProvider>,
    );
    expect(await screen.findByTestId('security-hold-warning')).toHaveTextContent(
      'Changing your password, your e-mail address or your two-factor authentication puts withdrawals on hold for 24 hours',
    );
  });
});
