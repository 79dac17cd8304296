// Regenerate: node libs/chains/src/spokes/vectors/injective.generate.mjs > libs/chains/src/spokes/vectors/injective.json
/* global console */
//
// Runs @sodax/sdk's own Injective deposit and call for fixed inputs and saves what its
// wallet provider was asked to execute (sender, contract, CosmWasm message, funds), plus
// the SDK's encodeAddress for several addresses. The wallet path is used (not the SDK's
// raw mode) because raw mode reads the account over the internet and drops the funds.
import { InjectiveSpokeProvider, InjectiveSpokeService, encodeAddress, spokeChainConfig } from '@sodax/sdk';

const CHAIN = 'injective-1';
const config = spokeChainConfig[CHAIN];
const user = 'inj1hkhdaj2a2clmq5jq6mspsggqs32vynpk228q3r';
const calls = [];
const provider = new InjectiveSpokeProvider(config, {
  getWalletAddress: async () => user,
  execute: async (sender, contractAddress, msg, funds) => {
    calls.push({ sender, contractAddress, msg, funds: funds ?? [] });
    return { transactionHash: '0'.repeat(64) };
  },
});

const deposit = {
  from: user,
  token: 'factory/inj1d036ftaatxpkqsu9hja8r24rv3v33chz3appxp/soda',
  amount: 1234500000000000000n,
  to: '0x1111111111111111111111111111111111111111',
  data: '0xdeadbeef00112233445566778899aabbccddeeff',
};
await InjectiveSpokeService.deposit(deposit, provider, undefined, false);
const nativeDeposit = { ...deposit, token: config.nativeToken, amount: 5000000000000000n, data: '0x' };
await InjectiveSpokeService.deposit(nativeDeposit, provider, undefined, false);
const message = { dstChainId: 146n, dstAddress: '0x2222222222222222222222222222222222222222', payload: '0xc0ffee0102030405' };
await InjectiveSpokeService.call(message.dstChainId, message.dstAddress, message.payload, provider, false);

const addresses = [
  user,
  'inj1dg6tm62uup53wn2kn97caeqfwt0sukx3qjk8rw',
  'inj1eexvfglsptxwfj9hft96xcnsdrvr7d7dalcm8w',
  'inj1d036ftaatxpkqsu9hja8r24rv3v33chz3appxp',
];
const bigints = (_, v) => (typeof v === 'bigint' ? v.toString() : v);
console.log(
  JSON.stringify(
    {
      source: '@sodax/sdk InjectiveSpokeService.deposit / call (wallet path) and encodeAddress',
      chain: CHAIN,
      assetManager: config.addresses.assetManager,
      connection: config.addresses.connection,
      nativeToken: config.nativeToken,
      addresses: addresses.map((address) => ({ address, bytes: encodeAddress(CHAIN, address) })),
      deposits: [
        { input: deposit, executed: calls[0] },
        { input: nativeDeposit, executed: calls[1] },
      ],
      message: { input: { user, ...message }, executed: calls[2] },
    },
    bigints,
    2,
  ),
);
