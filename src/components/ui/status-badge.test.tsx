// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { StatusBadge, statusTone } from './status-badge';

describe('status colours of the specification', () => {
  it.each([
    ['approved', 'green'],
    ['rejected', 'red'],
    ['pending', 'yellow'],
    ['processing', 'blue'],
    ['cancelled', 'gray'],
    ['on hold', 'purple'],
  ])('an admin badge for %s is %s', (status, tone) => {
    expect(statusTone(status, 'request')).toBe(tone);
  });

  it.each([
    ['complete', 'green'],
    ['completed', 'green'],
    ['pending', 'yellow'],
    ['processing', 'yellow'],
  ])('a user transaction %s is %s', (status, tone) => {
    expect(statusTone(status, 'transaction')).toBe(tone);
  });

  it.each([
    ['approved', 'green'],
    ['rejected', 'red'],
    ['pending', 'yellow'],
    ['cancelled', 'gray'],
  ])('a buy request %s is %s', (status, tone) => {
    expect(statusTone(status, 'buy')).toBe(tone);
  });

  it('shows the status text with its tone', () => {
    render(<StatusBadge status="approved" palette="buy" />);
    expect(screen.getByText('Approved')).toHaveAttribute('data-tone', 'green');
  });

  it('writes every status in one case, however it was stored', () => {
    render(<StatusBadge status="COMPLETE" palette="transaction" />);
    expect(screen.getByText('Complete')).toHaveAttribute('data-tone', 'green');
  });
});
