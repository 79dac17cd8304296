import type { Intent } from '@swap/contracts';
import { encodeAbiParameters, type Address, type Hex } from 'viem';
import { keccak256Hex } from '@swap/contracts';

/** The intent tuple of the hub intents contract (protocol-facts.md), in ABI order. */
export const INTENT_TUPLE = {
  type: 'tuple',
  components: [
    { name: 'intentId', type: 'uint256' },
    { name: 'creator', type: 'address' },
    { name: 'inputToken', type: 'address' },
    { name: 'outputToken', type: 'address' },
    { name: 'inputAmount', type: 'uint256' },
    { name: 'minOutputAmount', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
    { name: 'allowPartialFill', type: 'bool' },
    { name: 'srcChain', type: 'uint256' },
    { name: 'dstChain', type: 'uint256' },
    { name: 'srcAddress', type: 'bytes' },
    { name: 'dstAddress', type: 'bytes' },
    { name: 'solver', type: 'address' },
    { name: 'data', type: 'bytes' },
  ],
} as const;

/** Addresses in lower case: same bytes, and viem skips a checksum keccak per address on every encoding. */
export function intentValues(intent: Intent) {
  return {
    intentId: BigInt(intent.intentId),
    creator: intent.creator.toLowerCase() as Hex,
    inputToken: intent.inputToken.toLowerCase() as Hex,
    outputToken: intent.outputToken.toLowerCase() as Hex,
    inputAmount: BigInt(intent.inputAmount),
    minOutputAmount: BigInt(intent.minOutputAmount),
    deadline: BigInt(intent.deadline),
    allowPartialFill: intent.allowPartialFill,
    srcChain: BigInt(intent.srcChain),
    dstChain: BigInt(intent.dstChain),
    srcAddress: intent.srcAddress as Hex,
    dstAddress: intent.dstAddress as Hex,
    solver: intent.solver.toLowerCase() as Hex,
    data: intent.data as Hex,
  };
}

export function encodeIntent(intent: Intent): Hex {
  return encodeAbiParameters([INTENT_TUPLE], [intentValues(intent)]);
}

/** The intent hash: `keccak256(abi.encode(intent))`, as the hub's events carry it. */
export function intentHash(intent: Intent): Hex {
  return keccak256Hex(encodeIntent(intent));
}

export function intentFromTuple(v: {
  intentId: bigint;
  creator: Address;
  inputToken: Address;
  outputToken: Address;
  inputAmount: bigint;
  minOutputAmount: bigint;
  deadline: bigint;
  allowPartialFill: boolean;
  srcChain: bigint;
  dstChain: bigint;
  srcAddress: Hex;
  dstAddress: Hex;
  solver: Address;
  data: Hex;
}): Intent {
  return {
    intentId: v.intentId.toString(),
    creator: v.creator,
    inputToken: v.inputToken,
    outputToken: v.outputToken,
    inputAmount: v.inputAmount.toString(),
    minOutputAmount: v.minOutputAmount.toString(),
    deadline: v.deadline.toString(),
    allowPartialFill: v.allowPartialFill,
    srcChain: v.srcChain.toString(),
    dstChain: v.dstChain.toString(),
    srcAddress: v.srcAddress,
    dstAddress: v.dstAddress,
    solver: v.solver,
    data: v.data,
  };
}

/** The same hash without hashing: numbers by value, hex in any letter case. */
export function sameIntent(a: Intent, b: Intent): boolean {
  for (const { name, type } of INTENT_TUPLE.components) {
    const x = a[name];
    const y = b[name];
    if (type === 'uint256') {
      if (!/^\d+$/.test(String(x)) || !/^\d+$/.test(String(y)) || BigInt(x as string) !== BigInt(y as string)) return false;
    } else if (type === 'bool') {
      if (x !== y) return false;
    } else if (String(x).toLowerCase() !== String(y).toLowerCase()) return false;
  }
  return true;
}
