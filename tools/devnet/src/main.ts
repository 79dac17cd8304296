/** `npm run devnet`: DATA_DIR (./.data), DEVNET_PORT (first chain's port, default 8546). */
import { resolve } from 'node:path';
import { stopOnSignals } from '@swap/service-kit';
import { startDevnet } from './devnet';

async function main(): Promise<void> {
  const devnet = await startDevnet({
    dataDir: resolve(process.env.DATA_DIR ?? '.data'),
    basePort: Number(process.env.DEVNET_PORT ?? 8546),
    log: (l) => process.stdout.write(`${l}\n`),
  });
  const hub = devnet.profile.chains.find((c) => c.hub)!;
  process.stdout.write(
    [
      '',
      `chain profile: ${devnet.profilePath}   (CHAIN_PROFILE=${devnet.profilePath} for quote-builder and relay-tracker)`,
      `relay API:     ${devnet.relayApiUrl}   (RELAY_API_URL=${devnet.relayApiUrl} for relay-tracker; the relayer ${devnet.relayer.address} carries messages between the chains)`,
      `a solver:      HUB_RPC_URL=${hub.rpcUrls?.[0]} INTENTS_CONTRACT=${hub.contracts?.intents} (SOLVER_PRIVATE_KEY: a solver key below)`,
      '',
      'demo wallets (anvil development keys: public, test money only):',
      ...devnet.accounts.map((a, i) => `  ${i === 0 ? 'deployer/relayer' : `demo ${i}          `}  ${a.address}  ${a.privateKey}`),
      ...devnet.solvers.map((a, i) => `  solver ${i + 1}          ${a.address}  ${a.privateKey}   (hub inventory of every asset)`),
      '',
      'Each demo wallet holds ETH, USDC (6 decimals) and WETH (18) on every chain. Stop with Ctrl-C.',
      '',
    ].join('\n'),
  );
  stopOnSignals(
    () => devnet.stop(),
    10_000,
    () => 'devnet',
  );
}

main().catch((error: Error) => {
  process.stderr.write(`devnet failed to start: ${error.message}\n`);
  process.exit(1);
});
