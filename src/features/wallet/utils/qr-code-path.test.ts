import jsQR from 'jsqr';
import { qrCodePath } from './qr-code-path';

/** The path drawn as a scanner sees it: black on white, 4 pixels a module, in a 4-module quiet zone. */
function scan({ size, path }: { size: number; path: string }): string | undefined {
  const scale = 4;
  const side = (size + 8) * scale;
  const pixels = new Uint8ClampedArray(side * side * 4).fill(255);
  for (const [, x, y, width] of path.matchAll(/M(\d+) (\d+)h(\d+)v1H\d+z/g)) {
    for (let column = Number(x); column < Number(x) + Number(width); column++) {
      for (let dy = 0; dy < scale; dy++) {
        for (let dx = 0; dx < scale; dx++) {
          const offset = (((Number(y) + 4) * scale + dy) * side + (column + 4) * scale + dx) * 4;
          pixels.fill(0, offset, offset + 3);
        }
      }
    }
  }
  return jsQR(pixels, side, side)?.data;
}

describe('QR code path', () => {
  it('scans back to the wallet code it was drawn from', () => {
    const walletCode = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh7a9d';
    expect(scan(qrCodePath(walletCode))).toBe(walletCode);
  });

  it('is a square of whole modules, version 3 (29 modules) for a 46-character code', () => {
    const qr = qrCodePath('bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh7a9d');
    expect(qr.size).toBe(29);
    expect(qr.path).toMatch(/^(M\d+ \d+h\d+v1H\d+z)+$/);
  });
});
