import type { Intent } from '@swap/contracts';
import { decodeAbiParameters } from 'viem';
import { encodeIntent, INTENT_TUPLE, intentHash, sameIntent } from './intent';

/*
 * Fixed vectors, computed independently of this code: ethers 6.17.0's ABI coder and
 * keccak256 over the tuple type
 * (uint256,address,address,address,uint256,uint256,uint256,bool,uint256,uint256,bytes,bytes,address,bytes)
 * with the same field values, i.e.
 *   keccak256(AbiCoder.defaultAbiCoder().encode([tupleType], [[intentId, creator, …, data]]))
 */
const MAX_ID_INTENT: Intent = {
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
const MAX_ID_HASH = '0x08b3d9b0f5450b22a8006ee81135aed44570e1b8668fe58fb4600f48110df132';

/** Partial fill, a one-byte source address, a 32-byte (Solana) destination, a fee in data. */
const BYTES_INTENT: Intent = {
  intentId: '7',
  creator: '0x00000000000000000000000000000000000000aa',
  inputToken: '0x0000000000000000000000000000000000000001',
  outputToken: '0x0000000000000000000000000000000000000002',
  inputAmount: '5',
  minOutputAmount: '4',
  deadline: '1800000000',
  allowPartialFill: true,
  srcChain: '146',
  dstChain: '1399811149',
  srcAddress: '0x11',
  dstAddress: `0x${'ab'.repeat(32)}`,
  solver: '0x00000000000000000000000000000000000000bb',
  data: `0x01${'cd'.repeat(40)}`,
};
const BYTES_HASH = '0x17d8941bbd49dfcf5bfc1a393c760c80b57ea9d9a5ddcdd07854fb0331e84761';

describe('intent encoding (protocol-facts.md)', () => {
  it('encodes the 14-field tuple so that it decodes back to the same values', () => {
    const [decoded] = decodeAbiParameters([INTENT_TUPLE], encodeIntent(MAX_ID_INTENT));
    expect(decoded.intentId).toBe(BigInt(MAX_ID_INTENT.intentId));
    expect(decoded.srcChain).toBe(23n);
    expect(decoded.creator.toLowerCase()).toBe(MAX_ID_INTENT.creator);
    expect(decoded.data).toBe('0x');
  });

  it.each([
    ['the largest intent id, empty data', MAX_ID_INTENT, MAX_ID_HASH],
    ['partial fill, short and 32-byte bytes fields, fee data', BYTES_INTENT, BYTES_HASH],
  ])('hashes %s to the vector another ABI implementation computed', (_, intent, expected) => {
    expect(intentHash(intent)).toBe(expected);
  });

  it('changes the hash with any one field', () => {
    expect(intentHash({ ...MAX_ID_INTENT, minOutputAmount: '330000000000001' })).not.toBe(MAX_ID_HASH);
    expect(intentHash({ ...BYTES_INTENT, allowPartialFill: false })).not.toBe(BYTES_HASH);
  });

  it('tells the same tuple apart from another without hashing: numbers by value, hex in any letter case, every field', () => {
    const same = {
      ...BYTES_INTENT,
      creator: BYTES_INTENT.creator.toUpperCase().replace('0X', '0x'),
      inputAmount: `00${BYTES_INTENT.inputAmount}`,
    };
    expect(sameIntent(BYTES_INTENT, same)).toBe(true);
    const NUMBERS = ['intentId', 'inputAmount', 'minOutputAmount', 'deadline', 'srcChain', 'dstChain'];
    const other = (field: keyof typeof BYTES_INTENT) =>
      field === 'allowPartialFill'
        ? !BYTES_INTENT.allowPartialFill
        : NUMBERS.includes(field)
          ? String(BigInt(BYTES_INTENT[field] as string) + 1n)
          : '0x01';
    const changed = (Object.keys(BYTES_INTENT) as (keyof typeof BYTES_INTENT)[]).filter((field) =>
      sameIntent(BYTES_INTENT, { ...BYTES_INTENT, [field]: other(field) }),
    );
    expect(changed).toEqual([]);
  });
});
