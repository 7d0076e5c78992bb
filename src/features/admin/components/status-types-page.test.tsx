// @vitest-environment jsdom
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createQueryClient } from '@/lib/query-client';
import { StatusTypesPage } from './status-types-page';

const deleted = vi.hoisted(() => [] as string[]);

/** Stands in for the Supabase client: one status type, "on hold", whose deletion is recorded. */
vi.mock('@/lib/supabase', () => ({
  supabase: {
    from: () => ({
      select: () => ({
        order: () => ({
          limit: () => Promise.resolve({ data: [{ id: 'status-type-1', name: 'on hold' }], error: null }),
        }),
      }),
      delete: () => ({
        eq: (_column: string, id: string) => ({
          select: () => {
            deleted.push(id);
            return Promise.resolve({ data: [{ id }], error: null });
          },
        }),
      }),
    }),
  },
}));

function renderPage() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <StatusTypesPage />
    </QueryClientProvider>,
  );
}

describe('the status types page', () => {
  it('says the 50-character limit of a name and how much of it is left, instead of cutting silently', async () => {
    renderPage();
    const name = screen.getByLabelText('Name');
    expect(name).toHaveAttribute('maxLength', '50');
    expect(name).toHaveAccessibleDescription('At most 50 characters (50 left)');
    await userEvent.type(name, 'awaiting documents');
    expect(name).toHaveAccessibleDescription('At most 50 characters (32 left)');
  });

  it('deletes a status type only after a confirmation that names it', async () => {
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete status type on hold' }));
    const confirmation = screen.getByRole('alertdialog', { name: 'Delete status type "on hold"?' });
    expect(deleted).toEqual([]);

    await userEvent.click(within(confirmation).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(deleted).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Delete status type on hold' }));
    await userEvent.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete status type' }),
    );
    await vi.waitFor(() => expect(deleted).toEqual(['status-type-1']));
    await vi.waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });
});
