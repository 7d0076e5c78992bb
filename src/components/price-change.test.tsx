import { render, screen } from '@testing-library/react';
import { PriceChange } from './price-change';

describe('24h price change', () => {
  it('shows a rise in green with an up arrow and two decimals', () => {
    render(<PriceChange percent={1.5} />);
    const change = screen.getByText('1.50%');
    expect(change).toHaveAttribute('data-trend', 'up');
    expect(change).toHaveClass('text-success');
    expect(screen.getByLabelText('Up')).toBeInTheDocument();
  });

  it('counts no change as a rise', () => {
    render(<PriceChange percent={0} />);
    expect(screen.getByText('0.00%')).toHaveAttribute('data-trend', 'up');
  });

  it('shows a fall in red with a down arrow', () => {
    render(<PriceChange percent={-2.104} />);
    const change = screen.getByText('-2.10%');
    expect(change).toHaveAttribute('data-trend', 'down');
    expect(change).toHaveClass('text-destructive');
    expect(screen.getByLabelText('Down')).toBeInTheDocument();
  });
});
