import { describe, expect, it } from 'vitest';
import { parseGoDuration } from './go-duration';

describe("Go's time.ParseDuration, as GoTrue reads ban_duration", () => {
  it('reads sequences of numbers with units', () => {
    expect(parseGoDuration('24h')).toEqual({ ms: 86_400_000 });
    expect(parseGoDuration('1h30m')).toEqual({ ms: 5_400_000 });
    expect(parseGoDuration('1.5s')).toEqual({ ms: 1500 });
    expect(parseGoDuration('-2m')).toEqual({ ms: -120_000 });
    expect(parseGoDuration('0')).toEqual({ ms: 0 });
  });

  it("answers Go's own error texts", () => {
    expect(parseGoDuration('forever')).toEqual({ error: 'time: invalid duration "forever"' });
    expect(parseGoDuration('10')).toEqual({ error: 'time: missing unit in duration "10"' });
    expect(parseGoDuration('1d')).toEqual({ error: 'time: unknown unit "d" in duration "1d"' });
    expect(parseGoDuration('')).toEqual({ error: 'time: invalid duration ""' });
  });
});
