import type { Intent } from '@swap/contracts';
import { decodeAbiParameters, keccak256 } from 'viem';
import { encodeIntent, INTENT_TUPLE, intentHash } from './intent';

const intent: Intent = {
  intentId: '115792089237316195423570985008687907853269984665640564039457584007913129639935',
  creator: '0x4fc1a3b9c2f4a1b8d1e5e6f7a8b9c0d1e2f3a4b5',
  inputToken: '0x29219dd400f2Bf60E5a23d13Be72B486D4038894',
  outputToken: '0x50c42dEAcD8Fc9773493ED674b675bE577f2634b',
  inputAmount: '1000000',
  minOutputAmount: '330000000000000',
  deadline: '1763816400',
  allowPartialFill: false,
  srcChain: '23',
  dstChain: '146',
  srcAddress: '0x4fc1a3b9c2f4a1b8d1e5e6f7a8b9c0d1e2f3a4b5',
  dstAddress: '0x4fc1a3b9c2f4a1b8d1e5e6f7a8b9c0d1e2f3a4b5',
  solver: '0x0000000000000000000000000000000000000000',
  data: '0x',
};

describe('intent encoding (protocol-facts.md)', () => {
  it('encodes the 14-field tuple so that it decodes back to the same values', () => {
    const [decoded] = decodeAbiParameters([INTENT_TUPLE], encodeIntent(intent));
    expect(decoded.intentId).toBe(BigInt(intent.intentId));
    expect(decoded.srcChain).toBe(23n);
    expect(decoded.creator.toLowerCase()).toBe(intent.creator.toLowerCase());
    expect(decoded.data).toBe('0x');
  });

  it('hashes as keccak256 of the encoding, and any field changes the hash', () => {
    expect(intentHash(intent)).toBe(keccak256(encodeIntent(intent)));
    expect(intentHash(intent)).toMatch(/^0x[0-9a-f]{64}$/);
    expect(intentHash({ ...intent, minOutputAmount: '330000000000001' })).not.toBe(intentHash(intent));
  });
});
