import { randomBytes } from 'node:crypto';
import { keccak256, toHex } from 'viem';
import { keccak256Hex, keccakReady } from './keccak';

describe('keccak256Hex (WebAssembly Keccak)', () => {
  it('answers what viem’s keccak256 answers, for empty, short, block-sized and long inputs', async () => {
    await keccakReady;
    const inputs = [0, 1, 31, 32, 135, 136, 137, 800, 5_000].flatMap((n) => [toHex(randomBytes(n)), toHex(new Uint8Array(n))]);
    for (const data of inputs) expect({ data, hash: keccak256Hex(data) }).toEqual({ data, hash: keccak256(data) });
    expect(keccak256Hex('0x')).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
  });
});
