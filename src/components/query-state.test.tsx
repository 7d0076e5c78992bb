// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { Table, TableBody, TableCell, TableRow } from '@/components/ui/table';
import { QueryRows, QueryState } from './query-state';

const loaded = { error: null, isPending: false };
const loading = { error: null, isPending: true };

function renderRows(
  queries: { error: Error | null; isPending: boolean }[],
  rows: string[] | undefined,
): void {
  render(
    <Table>
      <TableBody>
        <QueryRows columns={2} queries={queries} rows={rows} emptyMessage="No requests yet.">
          {(row) => (
            <TableRow key={row}>
              <TableCell>{row}</TableCell>
            </TableRow>
          )}
        </QueryRows>
      </TableBody>
    </Table>,
  );
}

describe('a table’s rows', () => {
  it('show placeholders, not an empty text, while any query they need is loading', () => {
    renderRows([loaded, loading], ['first']);
    expect(screen.queryByText('first')).not.toBeInTheDocument();
    expect(screen.queryByText('No requests yet.')).not.toBeInTheDocument();
    expect(screen.getAllByRole('row', { hidden: true }).length).toBeGreaterThan(1);
  });

  it('show the failing query’s message as an alert, even when another query is still loading', () => {
    renderRows([loading, { error: new Error('Failed to load status types'), isPending: false }], undefined);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to load status types');
  });

  it('say so when the list is empty, and show one row per item otherwise', () => {
    renderRows([loaded], []);
    expect(screen.getByText('No requests yet.')).toBeInTheDocument();
    renderRows([loaded], ['first', 'second']);
    expect(screen.getByText('first')).toBeInTheDocument();
    expect(screen.getByText('second')).toBeInTheDocument();
  });
});

describe('a panel’s first load', () => {
  function renderPanel(query: { data: string | undefined; isPending: boolean; error: Error | null }) {
    render(
      <QueryState
        query={query}
        placeholder={<p>Loading the panel</p>}
        errorMessage="Failed to fetch user data"
      >
        {(data) => <p>Loaded: {data}</p>}
      </QueryState>,
    );
  }

  it('shows its own placeholder until the first answer', () => {
    renderPanel({ data: undefined, isPending: true, error: null });
    expect(screen.getByText('Loading the panel')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the panel’s failure text as an alert, not the raw error', () => {
    renderPanel({ data: undefined, isPending: false, error: new Error('TypeError: Failed to fetch') });
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to fetch user data');
    expect(screen.queryByText(/TypeError/)).not.toBeInTheDocument();
  });

  it('shows the content once the data is there', () => {
    renderPanel({ data: 'bc1q', isPending: false, error: null });
    expect(screen.getByText('Loaded: bc1q')).toBeInTheDocument();
  });
});
