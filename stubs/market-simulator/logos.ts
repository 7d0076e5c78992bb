import { crc32, deflateSync } from 'node:zlib';
import { simulatedCoins } from './coins';

const SIZE = 64;
/** Samples per pixel along each axis: the disc's and the ring's edges are smoothed, as a real logo's are. */
const SAMPLES = 4;

/** How much of the pixel at (x, y) lies inside the circle of radius `outer` and outside that of `inner`. */
function coverage(x: number, y: number, outer: number, inner = 0): number {
  let inside = 0;
  for (let sy = 0; sy < SAMPLES; sy++) {
    for (let sx = 0; sx < SAMPLES; sx++) {
      const dx = x + (sx + 0.5) / SAMPLES - SIZE / 2;
      const dy = y + (sy + 0.5) / SAMPLES - SIZE / 2;
      const distance = Math.hypot(dx, dy);
      if (distance <= outer && distance >= inner) inside++;
    }
  }
  return inside / SAMPLES ** 2;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, checksum]);
}

const drawnLogos = new Map<string, Buffer>();

/**
 * A 64×64 round PNG logo in the coin's brand colour with a light ring, served locally so the simulator
 * works offline; each is drawn once. PNG, as CoinGecko's own logos are
 * (`…/coins/images/1/large/bitcoin.png`): an SVG logo would cost the page a document of its own per image,
 * which the real provider's never do.
 */
export function coinLogoPng(coinId: string): Buffer | undefined {
  const coin = simulatedCoins.find((candidate) => candidate.id === coinId);
  if (!coin) return undefined;
  let logo = drawnLogos.get(coin.id);
  if (!logo) drawnLogos.set(coin.id, (logo = drawLogo(coin.colour)));
  return logo;
}

function drawLogo(colour: string): Buffer {
  const channels = [1, 3, 5].map((at) => Number.parseInt(colour.slice(at, at + 2), 16));
  const rows: Buffer[] = [];
  for (let y = 0; y < SIZE; y++) {
    // Each scanline starts with its filter type: 0, none.
    const row = Buffer.alloc(1 + SIZE * 4);
    for (let x = 0; x < SIZE; x++) {
      const ring = coverage(x, y, 26, 24) * 0.25;
      const at = 1 + x * 4;
      // The brand colour, lightened towards white where the ring lies.
      channels.forEach((channel, index) => (row[at + index] = Math.round(channel + (255 - channel) * ring)));
      row[at + 3] = Math.round(255 * coverage(x, y, SIZE / 2));
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  // 8 bits per channel, colour type 6 (RGBA), deflate, no filter method beyond per-line, no interlace.
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
