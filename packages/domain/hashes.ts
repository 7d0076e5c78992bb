/**
 * The two hashes address checksums need, synchronous so a zod refinement can call them (Web Crypto is async,
 * and the browser form and the `withdrawals` function both parse synchronously): SHA-256 (Bitcoin's
 * base58check) and Keccak-256 (Ethereum's EIP-55, the pre-standard padding, not SHA3-256). Written here
 * because the domain module imports nothing but zod; checked against published test vectors.
 */

const sha256RoundConstants = Uint32Array.from(
  // First 32 bits of the fractional parts of the cube roots of the first 64 primes (FIPS 180-4, 4.2.2).
  [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ],
);

/** An element of a fixed-size array, always in range here (the index checks of `noUncheckedIndexedAccess`). */
function wordAt(words: Uint32Array, index: number): number {
  return words[index] ?? 0;
}

function laneAt(lanes: readonly bigint[], index: number): bigint {
  return lanes[index] ?? 0n;
}

function rotateRight(value: number, bits: number): number {
  return (value >>> bits) | (value << (32 - bits));
}

export function sha256(message: Uint8Array): Uint8Array {
  const bitLength = message.length * 8;
  const paddedLength = Math.ceil((message.length + 9) / 64) * 64;
  const padded = new Uint8Array(paddedLength);
  padded.set(message);
  padded[message.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(paddedLength - 8, Math.floor(bitLength / 2 ** 32));
  view.setUint32(paddedLength - 4, bitLength >>> 0);

  const state = Uint32Array.from([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const schedule = new Uint32Array(64);
  for (let block = 0; block < paddedLength; block += 64) {
    for (let t = 0; t < 16; t += 1) schedule[t] = view.getUint32(block + t * 4);
    for (let t = 16; t < 64; t += 1) {
      const w15 = wordAt(schedule, t - 15);
      const w2 = wordAt(schedule, t - 2);
      const s0 = rotateRight(w15, 7) ^ rotateRight(w15, 18) ^ (w15 >>> 3);
      const s1 = rotateRight(w2, 17) ^ rotateRight(w2, 19) ^ (w2 >>> 10);
      schedule[t] = (wordAt(schedule, t - 16) + s0 + wordAt(schedule, t - 7) + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, h] = Array.from({ length: 8 }, (_, index) => wordAt(state, index)) as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    for (let t = 0; t < 64; t += 1) {
      const s1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25);
      const choice = (e & f) ^ (~e & g);
      const temp1 = (h + s1 + choice + wordAt(sha256RoundConstants, t) + wordAt(schedule, t)) >>> 0;
      const s0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22);
      const majority = (a & b) ^ (a & c) ^ (b & c);
      const temp2 = (s0 + majority) >>> 0;
      [h, g, f, e, d, c, b, a] = [g, f, e, (d + temp1) >>> 0, c, b, a, (temp1 + temp2) >>> 0];
    }
    [a, b, c, d, e, f, g, h].forEach((word, index) => {
      state[index] = (wordAt(state, index) + word) >>> 0;
    });
  }
  const digest = new Uint8Array(32);
  const digestView = new DataView(digest.buffer);
  state.forEach((word, index) => digestView.setUint32(index * 4, word));
  return digest;
}

const laneMask = (1n << 64n) - 1n;

function rotateLeft64(lane: bigint, bits: bigint): bigint {
  return bits === 0n ? lane : ((lane << bits) | (lane >> (64n - bits))) & laneMask;
}

/** Keccak-f[1600] round constants and rotation offsets (The Keccak reference, 1.2 and 3.2.2). */
const keccakRoundConstants = [
  0x0000000000000001n,
  0x0000000000008082n,
  0x800000000000808an,
  0x8000000080008000n,
  0x000000000000808bn,
  0x0000000080000001n,
  0x8000000080008081n,
  0x8000000000008009n,
  0x000000000000008an,
  0x0000000000000088n,
  0x0000000080008009n,
  0x000000008000000an,
  0x000000008000808bn,
  0x800000000000008bn,
  0x8000000000008089n,
  0x8000000000008003n,
  0x8000000000008002n,
  0x8000000000000080n,
  0x000000000000800an,
  0x800000008000000an,
  0x8000000080008081n,
  0x8000000000008080n,
  0x0000000080000001n,
  0x8000000080008008n,
];
// Indexed by x + 5y.
const keccakRotations = [
  0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
].map(BigInt);

function keccakPermute(lanes: bigint[]): void {
  for (const roundConstant of keccakRoundConstants) {
    const columns = [0, 1, 2, 3, 4].map(
      (x) =>
        laneAt(lanes, x) ^
        laneAt(lanes, x + 5) ^
        laneAt(lanes, x + 10) ^
        laneAt(lanes, x + 15) ^
        laneAt(lanes, x + 20),
    );
    for (let x = 0; x < 5; x += 1) {
      const theta = laneAt(columns, (x + 4) % 5) ^ rotateLeft64(laneAt(columns, (x + 1) % 5), 1n);
      for (let y = 0; y < 25; y += 5) lanes[x + y] = laneAt(lanes, x + y) ^ theta;
    }
    const moved = new Array<bigint>(25);
    for (let x = 0; x < 5; x += 1) {
      for (let y = 0; y < 5; y += 1) {
        moved[y + 5 * ((2 * x + 3 * y) % 5)] = rotateLeft64(
          laneAt(lanes, x + 5 * y),
          laneAt(keccakRotations, x + 5 * y),
        );
      }
    }
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x += 1) {
        lanes[x + y] =
          laneAt(moved, x + y) ^
          (~laneAt(moved, ((x + 1) % 5) + y) & laneMask & laneAt(moved, ((x + 2) % 5) + y));
      }
    }
    lanes[0] = laneAt(lanes, 0) ^ roundConstant;
  }
}

export function keccak256(message: Uint8Array): Uint8Array {
  const rate = 136;
  const paddedLength = (Math.floor(message.length / rate) + 1) * rate;
  const padded = new Uint8Array(paddedLength);
  padded.set(message);
  // Both pad bits land in one byte when the message fills all but one byte of its block.
  padded[message.length] = 0x01;
  padded[paddedLength - 1] = (padded[paddedLength - 1] ?? 0) | 0x80;

  const lanes = new Array<bigint>(25).fill(0n);
  const view = new DataView(padded.buffer);
  for (let block = 0; block < paddedLength; block += rate) {
    for (let lane = 0; lane < rate / 8; lane += 1)
      lanes[lane] = laneAt(lanes, lane) ^ view.getBigUint64(block + lane * 8, true);
    keccakPermute(lanes);
  }
  const digest = new Uint8Array(32);
  const digestView = new DataView(digest.buffer);
  for (let lane = 0; lane < 4; lane += 1) digestView.setBigUint64(lane * 8, laneAt(lanes, lane), true);
  return digest;
}
