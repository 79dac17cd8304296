// Regenerate: node libs/chains/src/spokes/vectors/icon.generate.mjs > libs/chains/src/spokes/vectors/icon.json
// Runs @sodax/sdk's own IconSpokeService.deposit / call in raw mode (IconRawSpokeProvider:
// no RPC is read, no wallet signs) for fixed inputs, so icon.spec.ts can compare the
// platform's ICON transactions with the public client's.
import { ConfigService, IconRawSpokeProvider, IconSpokeService, encodeAddress } from '@sodax/sdk';
import { spokeChainConfig } from '@sodax/types';
import process from 'node:process';

const CHAIN = '0x1.icon';
const chainConfig = spokeChainConfig[CHAIN];
const user = 'hx4873b94352c8c1f3b2f09aaeccea31ce9e90bd31';
const hubWallet = '0x5c3e7d1c4a1f0b2e9d8c7b6a5f4e3d2c1b0a9f8e';
const data = '0x0a0b0c0d0e0f1011121314151617181920';
const amount = 1234567890123456789n;
const hubProvider = { configService: new ConfigService({ config: {} }), chainConfig: { chain: { id: 'sonic' } } };
const provider = new IconRawSpokeProvider(chainConfig, user);

const tokens = {
  ICX: chainConfig.supportedTokens.ICX.address,
  wICX: chainConfig.supportedTokens.wICX.address,
  bnUSD: chainConfig.supportedTokens.bnUSD.address,
};
const deposits = [];
for (const [symbol, token] of Object.entries(tokens)) {
  const raw = await IconSpokeService.deposit({ from: user, to: hubWallet, token, amount, data }, provider, hubProvider, true);
  deposits.push({ symbol, token, raw });
}
const message = { dstChainId: '146', dstAddress: hubWallet, payload: '0xdeadbeef00112233' };
const messageRaw = await IconSpokeService.call(BigInt(message.dstChainId), message.dstAddress, message.payload, provider, true);
const callWalletRaw = await IconSpokeService.callWallet(message.dstAddress, message.payload, provider, hubProvider, true);

const addresses = [
  user,
  'hx0000000000000000000000000000000000000000',
  'hxffffffffffffffffffffffffffffffffffffffff',
  chainConfig.addresses.assetManager,
  chainConfig.addresses.connection,
  tokens.ICX,
  tokens.bnUSD,
].map((address) => ({ address, bytes: encodeAddress(CHAIN, address) }));

process.stdout.write(
  `${JSON.stringify(
    {
      source: '@sodax/sdk IconSpokeService (raw mode), encodeAddress',
      chain: CHAIN,
      config: {
        nid: chainConfig.nid,
        wICX: chainConfig.addresses.wICX,
        nativeToken: chainConfig.nativeToken,
        assetManager: chainConfig.addresses.assetManager,
        connection: chainConfig.addresses.connection,
      },
      addresses,
      deposit: { user, to: hubWallet, amount: amount.toString(), data, transactions: deposits },
      message: { user, ...message, transaction: messageRaw, callWallet: callWalletRaw },
    },
    null,
    2,
  )}\n`,
);
