/* global console, process */
// The gas this platform answers (POST /gas/estimate, each adapter's feeOf) beside what the public
// client's own estimateGas (@sodax/sdk 1.3.0-beta, ESM, outside jest) reads from the same node, for
// the same built transaction, on the networks whose quantity is the same: ICON (debug_estimateStep
// steps) and Stellar (the simulation's minResourceFee). Against the devnet's RPC doubles, from dist/
// (npm run build first). Exits 1 on any difference; prints one JSON line per network.
import { CustomSorobanServer, IconSpokeService, StellarSpokeService } from '@sodax/sdk';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { loadChainDirectory, spokeNetworkOf } = require('../../../dist/libs/chains/src/index.js');
const { IconRpcDouble } = require('../../../dist/tools/devnet/src/icon-rpc-double.js');
const { StellarRpcDouble } = require('../../../dist/tools/devnet/src/stellar-rpc-double.js');

const HUB_WALLET = '0x00112233445566778899aabbccddeeff00112233';
const HUB_CALLS = `0x${'5a'.repeat(68)}`;
const mainnet = loadChainDirectory('mainnet');

async function icon() {
  const double = new IconRpcDouble();
  await double.start();
  try {
    const chain = { ...mainnet.findChain('0x1.icon'), rpcUrls: [double.url] };
    const adapter = spokeNetworkOf('ICON').createAdapter(chain, { timeoutMs: 2_000 });
    const user = 'hx4873b94352c8c1f3b2f09aaeccea31ce9e90bd31';
    const wicx = mainnet.tokensOf('0x1.icon').find((t) => t.symbol === 'wICX').address;
    const tx = await adapter.buildDeposit({ user, token: wicx, to: HUB_WALLET, amount: 1_000_000n, data: HUB_CALLS });
    const ours = (await adapter.feeOf(tx)).gas;
    const sdk = await IconSpokeService.estimateGas(JSON.parse(tx.data), { debugRpcUrl: double.url.replace(/\/api\/v3$/, '/api/v3d') });
    return { network: 'icon', quantity: 'steps', ours, sdk: sdk.toString() };
  } finally {
    await double.stop();
  }
}

async function stellar() {
  const double = new StellarRpcDouble();
  await double.start();
  try {
    const chain = { ...mainnet.findChain('stellar'), rpcUrls: [double.url] };
    const adapter = spokeNetworkOf('STELLAR').createAdapter(chain, { timeoutMs: 2_000 });
    const user = 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7';
    const xlm = mainnet.tokensOf('stellar').find((t) => t.symbol === 'XLM').address;
    const tx = await adapter.buildDeposit({ user, token: xlm, to: HUB_WALLET, amount: 25_000_000n, data: HUB_CALLS });
    const ours = (await adapter.feeOf(tx)).gas;
    // The client's own Soroban server (its own stellar-sdk), as its Stellar provider makes it.
    const sorobanServer = new CustomSorobanServer(double.url, {});
    const sdk = await StellarSpokeService.estimateGas({ data: tx.data }, { sorobanServer });
    return { network: 'stellar', quantity: 'minResourceFee (stroops)', ours, sdk: sdk.toString() };
  } finally {
    await double.stop();
  }
}

let failed = false;
for (const check of [icon, stellar]) {
  const result = await check();
  console.log(JSON.stringify(result));
  if (result.ours !== result.sdk) failed = true;
}
process.exit(failed ? 1 : 0);
