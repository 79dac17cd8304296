/* global console */
// Regenerate: node libs/chains/src/spokes/vectors/intents.generate.mjs > libs/chains/src/spokes/vectors/intents.json
//
// The public client's own intent for a swap from each network to the hub and back
// (@sodax/sdk EvmSolverService.constructCreateIntentData, with its static ConfigService:
// the spoke token's hub asset, the addresses as its encodeAddress writes them, a random
// intentId), the hub calls it deposits (approve + createIntent) and its getIntentHash, and the
// hub calls of its cancel from the spoke (SolverService.cancelIntent: encodeCancelIntent, sent
// to the hub wallet with encodeContractCalls). The spec builds the same payload, hash and
// cancel call from that intent with this platform's code.
import { ConfigService, EvmSolverService, encodeAddress, encodeContractCalls } from '@sodax/sdk';

const HUB_WALLET = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const EVM_USER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const SOLVER = { intentsContract: '0x6382D6ccD780758C5e8A6123c33ee8F4472F96ef', solverApiEndpoint: 'http://127.0.0.1:1' };
const config = new ConfigService({ backendApiService: undefined, config: undefined, sharedConfig: undefined });

const cases = [
  { chain: 'solana', user: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', token: '11111111111111111111111111111111' },
  { chain: 'sui', user: `0x${'7e'.repeat(32)}`, token: '0x0000000000000000000000000000000000000000000000000000000000000002::sui::SUI' },
  {
    chain: 'stellar',
    user: 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7',
    token: 'CAS3J7GYLGXMF6TDJBBYYSE3HQ6BBSMLNUQ34T6TZMYMW2EVH34XOWMA',
  },
  {
    chain: 'injective-1',
    user: 'inj1dg6tm62uup53wn2kn97caeqfwt0sukx3qjk8rw',
    token: 'factory/inj1d036ftaatxpkqsu9hja8r24rv3v33chz3appxp/soda',
  },
  { chain: '0x1.icon', user: 'hx9d8a8376e7db9f00478feb9a46f44f0d051aab57', token: 'cx0000000000000000000000000000000000000000' },
];
const HUB_OUTPUT = '0x29219dd400f2Bf60E5a23d13Be72B486D4038894'; // USDC on Sonic

const text = (v) => (typeof v === 'bigint' ? v.toString() : v);
const vectors = cases.map(({ chain, user, token }) => {
  const params = {
    inputToken: token,
    outputToken: HUB_OUTPUT,
    inputAmount: 1_000_000n,
    minOutputAmount: 1n,
    deadline: 1_763_816_400n,
    allowPartialFill: false,
    srcChain: chain,
    dstChain: 'sonic',
    srcAddress: user,
    dstAddress: EVM_USER,
    solver: '0x0000000000000000000000000000000000000000',
    data: '0x',
  };
  const [payload, intent] = EvmSolverService.constructCreateIntentData(params, HUB_WALLET, SOLVER, config, undefined);
  return {
    chain,
    user,
    token,
    userBytes: encodeAddress(chain, user),
    intent: Object.fromEntries(Object.entries(intent).map(([k, v]) => [k, text(v)])),
    payload,
    intentHash: EvmSolverService.getIntentHash(intent),
    cancelPayload: encodeContractCalls([EvmSolverService.encodeCancelIntent(intent, SOLVER.intentsContract)]),
  };
});
console.log(
  JSON.stringify(
    {
      source: '@sodax/sdk 1.3.0-beta EvmSolverService.constructCreateIntentData / getIntentHash / encodeCancelIntent, encodeContractCalls',
      intents: SOLVER.intentsContract,
      vectors,
    },
    null,
    2,
  ),
);
