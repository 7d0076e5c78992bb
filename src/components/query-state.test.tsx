import { render, screen } from '@testing-library/react';
import { Table, TableBody, TableCell, TableRow } from '@/components/ui/table';
import { QueryRows } from './table-states';

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

describe('an admin table’s rows', () => {
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
