import { csvFileName, csvLocalTime, csvUtcTime, toCsv, type CsvColumn } from './csv';
import { formatUsdPlain } from './format';

interface Request {
  name: string;
  amount: number;
  date: string;
  note: string | null;
}

const columns: CsvColumn<Request>[] = [
  { header: 'Name', value: (request) => request.name },
  { header: 'Amount (USD)', value: (request) => formatUsdPlain(request.amount) },
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

describe('csvLocalTime', () => {
  it('writes the wall-clock time of the zone with its offset, across daylight saving', () => {
    expect(csvLocalTime('2026-11-24T05:20:21.123Z', 'Europe/Berlin')).toBe('2026-11-24T06:20:21+01:00');
    expect(csvLocalTime('2026-07-01T05:20:21Z', 'Europe/Berlin')).toBe('2026-07-01T07:20:21+02:00');
    expect(csvLocalTime('2026-11-24T02:00:00Z', 'America/New_York')).toBe('2026-11-23T21:00:00-05:00');
    expect(csvLocalTime('2026-11-24T05:20:21Z', 'Asia/Kolkata')).toBe('2026-11-24T10:50:21+05:30');
    expect(csvLocalTime('2026-11-24T05:20:21Z', 'UTC')).toBe('2026-11-24T05:20:21+00:00');
  });
});
