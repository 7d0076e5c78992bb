import { historyPointsOf, summarizeHistory } from './history';

const points = (...values: number[]) =>
  values.map((value, index) => ({ at: new Date(Date.UTC(2026, 10, 24, 0, index)), value }));

describe('a history in words', () => {
  it('gives the first and last values, the high and the low, and the change in USD and %', () => {
    expect(summarizeHistory(points(200, 260, 150, 250))).toEqual({
      first: 200,
      last: 250,
      high: 260,
      low: 150,
      change: 50,
      changePercent: 25,
    });
  });

  it('gives a fall as a negative change', () => {
    expect(summarizeHistory(points(400, 300))).toMatchObject({ change: -100, changePercent: -25 });
  });

  it('has no percentage from nothing held at first', () => {
    expect(summarizeHistory(points(0, 120))).toMatchObject({ change: 120, changePercent: undefined });
  });

  it('is nothing without points', () => {
    expect(summarizeHistory([])).toBeUndefined();
  });
});

describe('history points', () => {
  it("are the rows' minutes and USD amounts, oldest first", () => {
    expect(
      historyPointsOf(
        [
          { captured_at: '2026-11-24T10:00:00+00:00', price: 95000.5 },
          { captured_at: '2026-11-24T10:01:00+00:00', price: 95001 },
        ],
        (row) => row.price,
      ),
    ).toEqual([
      { at: new Date('2026-11-24T10:00:00Z'), value: 95000.5 },
      { at: new Date('2026-11-24T10:01:00Z'), value: 95001 },
    ]);
  });
});
