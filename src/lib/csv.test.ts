import { csvAmount, csvFileName, csvUtcTime, toCsv, type CsvColumn } from './csv';

interface Request {
  name: string;
  amount: number;
  date: string;
  note: string | null;
}

const columns: CsvColumn<Request>[] = [
  { header: 'Name', value: (request) => request.name },
  { header: 'Amount (USD)', value: (request) => csvAmount(request.amount) },
  { header: 'Date (UTC)', value: (request) => csvUtcTime(request.date) },
  { header: 'Note', value: (request) => request.note },
];

describe('a CSV export of an admin list', () => {
  it('names its columns, writes amounts without signs or separators and times in UTC', () => {
    const csv = toCsv(columns, [
      { name: 'Jane Doe', amount: 1234.5, date: '2026-11-24T06:20:21.123+01:00', note: null },
    ]);
    expect(csv).toBe('Name,Amount (USD),Date (UTC),Note\r\nJane Doe,1234.50,2026-11-24T05:20:21Z,\r\n');
  });

  it('quotes text holding commas, quotes or line breaks', () => {
    const csv = toCsv(columns, [
      { name: 'Doe, "JD" Jane', amount: 1, date: '2026-01-01T00:00:00Z', note: 'two\nlines' },
    ]);
    expect(csv.split('\r\n')[1]).toBe('"Doe, ""JD"" Jane",1.00,2026-01-01T00:00:00Z,"two\nlines"');
  });

  it('never lets a name run as a spreadsheet formula', () => {
    const csv = toCsv(columns, [
      { name: '=HYPERLINK("http://x")', amount: 1, date: '2026-01-01T00:00:00Z', note: '@SUM(A1)' },
    ]);
    expect(csv.split('\r\n')[1]).toBe(`"'=HYPERLINK(""http://x"")",1.00,2026-01-01T00:00:00Z,'@SUM(A1)`);
  });

  it('keeps a negative amount a number', () => {
    expect(toCsv(columns.slice(1, 2), [{ name: '', amount: -5, date: '', note: null }])).toBe(
      'Amount (USD)\r\n-5.00\r\n',
    );
  });

  it('has only the header row when nothing matched', () => {
    expect(toCsv(columns, [])).toBe('Name,Amount (USD),Date (UTC),Note\r\n');
  });

  it('is named after the list and the moment of the export', () => {
    expect(csvFileName('buy-requests', new Date('2026-11-24T05:20:21.500Z'))).toBe(
      'buy-requests-2026-11-24T052021Z.csv',
    );
  });
});
