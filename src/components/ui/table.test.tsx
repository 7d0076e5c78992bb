// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from './table';

/** A queue's last column: Approve and Reject while a request waits, nothing once it is decided. */
function Queue({ decided }: { decided: boolean }) {
  return (
    <Table aria-label="Requests">
      <TableHeader>
        <TableRow>
          <TableHead>Amount</TableHead>
          <TableHead>Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        <TableRow>
          <TableCell>$10.00</TableCell>
          <TableCell data-testid="actions">
            <div className="flex gap-2">{!decided && <button type="button">Approve</button>}</div>
          </TableCell>
        </TableRow>
      </TableBody>
    </Table>
  );
}

describe('a table row as a phone card', () => {
  it('names each cell after its column', () => {
    render(<Queue decided={false} />);
    expect(screen.getByText('$10.00')).toHaveAttribute('data-label', 'Amount');
    expect(screen.getByTestId('actions')).toHaveAttribute('data-label', 'Actions');
    expect(screen.getByTestId('actions')).not.toHaveAttribute('data-blank');
  });

  it('leaves out the Actions line of a decided row, whose cell has no buttons', async () => {
    const { rerender } = render(<Queue decided={false} />);
    rerender(<Queue decided />);
    await vi.waitFor(() => expect(screen.getByTestId('actions')).toHaveAttribute('data-blank'));
    expect(screen.getByRole('table').className).toContain('max-sm:[&_td[data-blank]]:hidden');
    expect(screen.getByText('$10.00')).not.toHaveAttribute('data-blank');
  });
});
