import { sampleIntent } from '@swap/testing';
import { decodeAbiParameters, keccak256 } from 'viem';
import { encodeIntent, INTENT_TUPLE, intentHash } from './intent';

const intent = sampleIntent({ intentId: '115792089237316195423570985008687907853269984665640564039457584007913129639935', minOutputAmount: '330000000000000' });

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
