// Regenerate: node libs/chains/src/spokes/vectors/sui.generate.mjs > libs/chains/src/spokes/vectors/sui.json
//
// Runs @sodax/sdk's own Sui deposit and call (SuiSpokeService with a SuiRawSpokeProvider,
// raw mode: the programmable transaction as base64 TransactionKind bytes) for fixed inputs,
// and its encodeAddress for several addresses. The SDK's Sui client is hard-wired to the
// public mainnet full node; it is pointed at tools/devnet's SuiRpcDouble instead (compiled
// here with esbuild), so the objects and coins it resolves are the ones the spec's builds see.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../../../../..');
const profile = JSON.parse(readFileSync(join(root, 'libs/chains/src/profiles/mainnet.json'), 'utf8'));
const sui = profile.chains.find((c) => c.key === 'sui');
const token = (symbol) => profile.tokens.find((t) => t.chainKey === 'sui' && t.symbol === symbol).address;

const doubleModule = join(here, '.sui-rpc-double.generated.mjs');
await build({
  entryPoints: [join(root, 'tools/devnet/src/sui-rpc-double.ts')],
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  outfile: doubleModule,
  logLevel: 'error',
});
const { SuiRpcDouble } = await import(pathToFileURL(doubleModule).href);
rmSync(doubleModule);

const { SuiRawSpokeProvider, SuiSpokeService, spokeChainConfig, encodeAddress } = await import('@sodax/sdk');
const { SuiClient } = await import(
  pathToFileURL(join(root, 'node_modules/@sodax/sdk/node_modules/@mysten/sui/dist/esm/client/index.js')).href
);

export const USER = '0x5f3c1a0e2b7d4c6e8f9a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f61';
export const HUB_WALLET = '0x1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d';
export const DATA = `0x${'ab'.repeat(4)}${'00'.repeat(28)}${'0123456789abcdef'.repeat(6)}`;

const double = new SuiRpcDouble({ assetManager: sui.assetManager, connection: sui.connection });
// Three USDC coins (merged, then the amount split off) and one bnUSD coin holding the amount exactly.
const coins = {
  SUI: [],
  USDC: [
    { coinObjectId: `0x${'c1'.repeat(32)}`, balance: '40000000' },
    { coinObjectId: `0x${'c2'.repeat(32)}`, balance: '30000000' },
    { coinObjectId: `0x${'c3'.repeat(32)}`, balance: '50000000' },
  ],
  bnUSD: [{ coinObjectId: `0x${'b1'.repeat(32)}`, balance: '2500000000' }],
};
for (const symbol of ['USDC', 'bnUSD'])
  double.seedCoins(
    USER,
    token(symbol),
    coins[symbol].map((c) => ({ objectId: c.coinObjectId, balance: BigInt(c.balance) })),
  );
await double.start();
try {
  const provider = new SuiRawSpokeProvider({ ...spokeChainConfig.sui, addresses: { ...spokeChainConfig.sui.addresses } }, USER);
  provider.publicClient = new SuiClient({ url: double.url });
  const deposits = [];
  for (const [name, symbol, amount] of [
    ['native SUI, split from the gas coin', 'SUI', 1_234_567_890n],
    ['USDC, three coins merged and split', 'USDC', 75_000_000n],
    ['bnUSD, one coin holding the amount exactly', 'bnUSD', 2_500_000_000n],
  ]) {
    const params = { from: USER, to: HUB_WALLET, token: token(symbol), amount, data: DATA };
    const raw = await SuiSpokeService.deposit(params, provider, undefined, true);
    deposits.push({
      name,
      token: params.token,
      amount: amount.toString(),
      coins: coins[symbol],
      sdk: { ...raw, value: raw.value.toString() },
    });
  }
  const message = { dstChainId: '146', dstAddress: HUB_WALLET, payload: `0x${'cd'.repeat(36)}` };
  const call = await SuiSpokeService.call(BigInt(message.dstChainId), message.dstAddress, message.payload, provider, true);
  const addresses = [
    USER,
    '0x0000000000000000000000000000000000000000000000000000000000000002',
    '0xa17a409164d1676db71b411ab50813ba2c7dd547d2df538c699049566f1ff922',
    '0xFFEEDDCCBBAA99887766554433221100FFEEDDCCBBAA99887766554433221100',
  ].map((address) => ({ address, bytes: encodeAddress('sui', address) }));
  const out = {
    generatedBy: 'libs/chains/src/spokes/vectors/sui.generate.mjs with @sodax/sdk 1.3.0-beta (raw mode, against SuiRpcDouble)',
    user: USER,
    hubWallet: HUB_WALLET,
    data: DATA,
    latestPackageId: double.latestPackageId,
    addresses,
    deposits,
    message: { ...message, sdk: { ...call, value: call.value.toString() } },
  };
  // eslint-disable-next-line no-undef -- a node script
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
} finally {
  await double.stop();
}
