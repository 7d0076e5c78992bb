// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { PriceChange } from './price-change';

describe('24h price change', () => {
  it('shows a rise in green with an up arrow and two decimals', () => {
    render(<PriceChange value={1.5} />);
    expect(screen.getByText('1.50%')).toHaveClass('text-success');
    expect(screen.getByRole('img', { name: 'up' })).toBeInTheDocument();
  });

  it('counts no change as a rise', () => {
    render(<PriceChange value={0} />);
    expect(screen.getByRole('img', { name: 'up' })).toBeInTheDocument();
  });

  it('shows a fall in red with a down arrow', () => {
    render(<PriceChange value={-2.104} />);
    expect(screen.getByText('-2.10%')).toHaveClass('text-destructive');
    expect(screen.getByRole('img', { name: 'down' })).toBeInTheDocument();
  });
});
