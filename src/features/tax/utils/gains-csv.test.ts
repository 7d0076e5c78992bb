import type { GainLine } from '../api/get-realised-gains';
import { gainsCsv, gainTotals } from './gains-csv';

const line = (overrides: Partial<GainLine>): GainLine => ({
  saleId: 'sale-1',
  lotId: 'lot-1',
  cryptocurrency: 'bitcoin',
  dateAcquired: '2024-01-10',
  dateSold: '2024-04-01',
  quantity: '0.5',
  proceeds: '80.00',
  costBasis: '50.00',
  gain: '30.00',
  term: 'short',
  method: 'fifo',
  ...overrides,
});

describe('the gains report as CSV', () => {
  it('has one row per lot a sale consumed, then the totals, to the cent and to 8 places', () => {
    const lines = [
      line({}),
      line({ saleId: 'sale-2', quantity: '0.123456785', proceeds: '0.10', costBasis: '0.20', gain: '-0.10' }),
      line({
        saleId: 'sale-2',
        lotId: 'lot-2',
        term: 'long',
        proceeds: '0.20',
        costBasis: '0.10',
        gain: '0.10',
      }),
    ];
    expect(gainsCsv(lines).split('\r\n')).toEqual([
      'Cryptocurrency,Date acquired,Date sold,Quantity,Proceeds (USD),Cost basis (USD),Gain or loss (USD),Term,Method,Sale ID,Lot ID',
      'bitcoin,2024-01-10,2024-04-01,0.50000000,80.00,50.00,30.00,short,fifo,sale-1,lot-1',
      'bitcoin,2024-01-10,2024-04-01,0.12345679,0.10,0.20,-0.10,short,fifo,sale-2,lot-1',
      'bitcoin,2024-01-10,2024-04-01,0.50000000,0.20,0.10,0.10,long,fifo,sale-2,lot-2',
      'Total,,,,80.30,50.30,30.00,,,,',
      '',
    ]);
    expect(gainTotals(lines)).toMatchObject({ shortTermGain: 2990n, longTermGain: 10n });
  });
});
