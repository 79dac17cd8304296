import { keccakReady } from '@swap/contracts';
import { getAddress } from 'viem';
import { randomBytes } from 'node:crypto';
import { iso, volumeRecordJson } from './explorer-json';

describe('explorer JSON writers', () => {
  it('writes times as toISOString does, quoted, across days, years and the edges of its fast path', () => {
    const edges = [0, 1, 999, 86_399_999, 86_400_000, 951_782_400_000, 1_735_689_599_999, Date.UTC(9999, 11, 31, 23, 59, 59, 999)];
    const random = Array.from({ length: 20_000 }, () => Math.floor(Math.random() * Date.UTC(2200, 0, 1)));
    for (const ms of [...edges, ...random]) expect({ ms, iso: iso(String(ms)) }).toEqual({ ms, iso: `"${new Date(ms).toISOString()}"` });
    for (const ms of [-1, -86_400_001, Date.UTC(10_000, 0, 1), 1.5, 1_735_689_600_000.75])
      expect(iso(String(ms))).toBe(`"${new Date(ms).toISOString()}"`);
  });

  it('writes a fill with EIP-55 addresses (from the WebAssembly Keccak) and its other columns as given', async () => {
    await keccakReady;
    const [solver, input, output] = [0, 1, 2].map(() => `0x${randomBytes(20).toString('hex')}`);
    const json = volumeRecordJson(
      {
        intent_hash: `0x${'ab'.repeat(32)}`,
        solver: solver!,
        input_token: input!,
        output_token: output!,
        input_amount: '1000000',
        output_amount: '995000',
        block_number: '1000002',
        tx_hash: `0x${'cd'.repeat(32)}`,
        log_index: 101,
        at_ms: '1735689602000',
      },
      146,
      false,
    );
    expect(JSON.parse(json)).toEqual({
      intentHash: `0x${'ab'.repeat(32)}`,
      solver: getAddress(solver!),
      inputToken: getAddress(input!),
      outputToken: getAddress(output!),
      amount: '1000000',
      outputAmount: '995000',
      chainId: 146,
      blockNumber: 1000002,
      txHash: `0x${'cd'.repeat(32)}`,
      logIndex: 101,
      timestamp: '2025-01-01T00:00:02.000Z',
    });
  });
});
