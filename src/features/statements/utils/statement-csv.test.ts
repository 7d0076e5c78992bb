import { describe, expect, it } from 'vitest';
import { statementColumnNames, statementCsv, statementFileName } from './statement-csv';

describe('statementCsv', () => {
  it('names the time zone in the Date header, coins as the app does, and writes plain numbers, oldest first as given', () => {
    const csv = statementCsv(
      [
        {
          id: '1f0c',
          date: '2026-11-24T05:20:21Z',
          type: 'deposit',
          status: 'complete',
          cryptocurrency: null,
          quantity: null,
          price: null,
          amount: 1234.5,
          balance: 1234.5,
        },
        {
          id: '2a9d',
          date: '2026-11-24T23:30:00Z',
          type: 'buy',
          status: 'pending',
          cryptocurrency: 'bitcoin',
          quantity: null,
          price: null,
          amount: 10,
          balance: 1234.5,
        },
        {
          id: '3b7e',
          date: '2026-11-25T08:00:00Z',
          type: 'sell',
          status: 'complete',
          cryptocurrency: 'ethereum',
          quantity: 0.1,
          price: 3010.25,
          amount: 301.03,
          balance: 1535.53,
        },
      ],
      'Europe/Berlin',
    );
    expect(csv.split('\r\n')).toEqual([
      'Date (Europe/Berlin),Type,Status,Cryptocurrency,Quantity,Price (USD),Amount (USD),Balance (USD),Transaction ID',
      '2026-11-24T06:20:21+01:00,deposit,complete,,,,1234.50,1234.50,1f0c',
      '2026-11-25T00:30:00+01:00,buy,pending,Bitcoin,,,10.00,1234.50,2a9d',
      '2026-11-25T09:00:00+01:00,sell,complete,Ethereum,0.10000000,3010.25,301.03,1535.53,3b7e',
      '',
    ]);
  });

  it('has the columns the card names, in that order', () => {
    const header = statementCsv([], 'UTC').split('\r\n')[0];
    expect(header).toBe(
      statementColumnNames.map((name) => (name === 'Date' ? 'Date (UTC)' : name)).join(','),
    );
  });

  it('names the file after the period', () => {
    expect(statementFileName({ from: '2026-11-01', to: '2026-11-24' })).toBe(
      'statement-2026-11-01-to-2026-11-24.csv',
    );
  });
});
