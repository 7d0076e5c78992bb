import { encode } from 'uqr';

/** A QR code drawn as one SVG path: `size` modules square, `path` covering the dark ones. */
export interface QrCodePath {
  size: number;
  path: string;
}

/**
 * The QR code of `text` (error correction L, the best of the eight masks, no quiet zone: the card draws
 * it), each row's runs of dark modules as one rectangle of the path.
 */
export function qrCodePath(text: string): QrCodePath {
  const { data, size } = encode(text, { ecc: 'L', border: 0 });
  let path = '';
  data.forEach((row, y) => {
    for (let x = 0; x < size;) {
      if (!row[x]) {
        x++;
        continue;
      }
      const start = x;
      while (row[x]) x++;
      path += `M${start} ${y}h${x - start}v1H${start}z`;
    }
  });
  return { size, path };
}
