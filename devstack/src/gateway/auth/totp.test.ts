import { describe, expect, it } from 'vitest';
import { newTotpSecret, totpCode, totpStep, totpStepOf, totpUri } from './totp';

/** RFC 6238 appendix B's SHA-1 key "12345678901234567890", in base32. */
const rfcSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('time-based one-time passwords (RFC 6238)', () => {
  it('gives the RFC’s test values, cut to six digits', () => {
    expect(totpCode(rfcSecret, new Date(59_000))).toBe('287082');
    expect(totpCode(rfcSecret, new Date(1_111_111_109_000))).toBe('081804');
    expect(totpCode(rfcSecret, new Date(2_000_000_000_000))).toBe('279037');
  });

  it('accepts the code of the step before and after, not two steps away', () => {
    const at = new Date(1_111_111_109_000);
    const step = totpStep(at);
    expect(totpStepOf(rfcSecret, totpCode(rfcSecret, at), at)).toBe(step);
    expect(totpStepOf(rfcSecret, totpCode(rfcSecret, new Date(at.getTime() - 30_000)), at)).toBe(step - 1);
    expect(totpStepOf(rfcSecret, totpCode(rfcSecret, new Date(at.getTime() + 30_000)), at)).toBe(step + 1);
    expect(totpStepOf(rfcSecret, totpCode(rfcSecret, new Date(at.getTime() - 60_000)), at)).toBeUndefined();
    expect(totpStepOf(rfcSecret, '12345', at)).toBeUndefined();
  });

  it('makes 32-character base32 secrets and the URI authenticator apps scan', () => {
    expect(newTotpSecret()).toMatch(/^[A-Z2-7]{32}$/);
    expect(totpUri('ABC', 'localhost:5173', 'a@b.co')).toBe(
      'otpauth://totp/localhost:5173:a@b.co?algorithm=SHA1&digits=6&issuer=localhost%3A5173&period=30&secret=ABC',
    );
  });
});
