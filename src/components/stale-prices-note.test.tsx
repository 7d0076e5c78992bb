// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { StalePricesNote } from './stale-prices-note';

describe('StalePricesNote', () => {
  it('says when stale prices are from', () => {
    render(<StalePricesNote snapshot={{ coins: [], source: 'live', pricesAsOf: new Date() }} />);
    expect(screen.getByTestId('stale-prices')).toHaveTextContent(
      /^Prices as of \d{1,2}:\d{2} (AM|PM) .+: live prices are unavailable right now\.$/,
    );
  });

  it('says nothing of fresh prices', () => {
    const { container } = render(<StalePricesNote snapshot={{ coins: [], source: 'live' }} />);
    expect(container).toBeEmptyDOMElement();
  });
});
