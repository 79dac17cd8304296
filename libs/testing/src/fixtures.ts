import type { Intent } from '@swap/contracts';

/** A well-formed intent from Arbitrum (relay chain 23) to the hub (146), for tests and benches. */
export function sampleIntent(overrides: Partial<Intent> = {}): Intent {
  return {
    intentId: '42',
    creator: '0x4fc1a3b9c2f4a1b8d1e5e6f7a8b9c0d1e2f3a4b5',
    inputToken: '0x29219dd400f2Bf60E5a23d13Be72B486D4038894',
    outputToken: '0x50c42dEAcD8Fc9773493ED674b675bE577f2634b',
    inputAmount: '1000000',
    minOutputAmount: '1',
    deadline: '1763816400',
    allowPartialFill: false,
    srcChain: '23',
    dstChain: '146',
    srcAddress: '0x4fc1a3b9c2f4a1b8d1e5e6f7a8b9c0d1e2f3a4b5',
    dstAddress: '0x4fc1a3b9c2f4a1b8d1e5e6f7a8b9c0d1e2f3a4b5',
    solver: '0x0000000000000000000000000000000000000000',
    data: '0x',
    ...overrides,
  };
}

/** A build request body without its deadline. */
export function intentRequestBody(fields: {
  srcChainKey: string;
  dstChainKey: string;
  inputToken: string;
  outputToken: string;
  inputAmount: string;
  user: string;
}) {
  const { user, ...rest } = fields;
  return {
    ...rest,
    minOutputAmount: '1',
    allowPartialFill: false,
    srcAddress: user,
    dstAddress: user,
    solver: '0x0000000000000000000000000000000000000000',
    data: '0x',
  };
}
