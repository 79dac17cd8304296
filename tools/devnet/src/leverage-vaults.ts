import type { LeverageVault } from '@swap/contracts';
import { parseUnits, type Address } from 'viem';
import type { Artifact, Artifacts } from './compile';

const WAD = 10n ** 18n;
const RAY = 10n ** 27n;

export const POOL_MAX_LTV_BPS = 8_000n;
export const POOL_LIQUIDATION_THRESHOLD_BPS = 8_500n;

/** Oracle price in USD, and the pool's rate curve: borrow = base + slope × utilisation, yearly. */
const RESERVES: Record<string, { priceUsd: bigint; baseRay: bigint; slopeRay: bigint; lenders: string; float: string }> = {
  WETH: { priceUsd: 3_000n, baseRay: RAY / 200n, slopeRay: RAY / 10n, lenders: '2000', float: '2000' },
  USDC: { priceUsd: 1n, baseRay: RAY / 100n, slopeRay: RAY / 5n, lenders: '5000000', float: '5000000' },
};

const VAULTS: { name: string; asset: string; borrow: string; targetLtvBps: bigint; lsdSource?: LeverageVault['lsdSource'] }[] = [
  {
    name: 'lsodaWETH',
    asset: 'WETH',
    borrow: 'USDC',
    targetLtvBps: 7_000n,
    lsdSource: { poolId: 'devnet-weth-staking', fallbackAprPct: 3.1, label: 'WETH staking (devnet)' },
  },
  { name: 'lsodaUSDC', asset: 'USDC', borrow: 'WETH', targetLtvBps: 6_000n },
];

interface HubWrites {
  deployer: Address;
  deploy(artifact: Artifact, args: unknown[]): Promise<Address>;
  call(artifact: Artifact, address: Address, functionName: string, args: unknown[]): Promise<void>;
}

/** The lending pool and the vaults over the hub's own USDC and WETH: tools/devnet/CONTRACTS.md#leveraged-yield. */
export async function deployLeverageVaults(
  artifacts: Artifacts,
  hub: HubWrites,
  tokens: Record<string, { address: Address; decimals: number }>,
): Promise<LeverageVault[]> {
  const pool = await hub.deploy(artifacts.LendingPool, [POOL_MAX_LTV_BPS, POOL_LIQUIDATION_THRESHOLD_BPS]);
  for (const [symbol, r] of Object.entries(RESERVES)) {
    const { address, decimals } = tokens[symbol];
    await hub.call(artifacts.LendingPool, pool, 'list', [address, decimals, r.priceUsd * WAD, r.baseRay, r.slopeRay, 1_000n]);
    const lent = parseUnits(r.lenders, decimals);
    await hub.call(artifacts.TestToken, address, 'mint', [hub.deployer, lent]);
    await hub.call(artifacts.TestToken, address, 'approve', [pool, lent]);
    await hub.call(artifacts.LendingPool, pool, 'supply', [address, lent, hub.deployer]);
    await hub.call(artifacts.TestToken, address, 'mint', [pool, parseUnits(r.float, decimals)]);
  }
  const vaults: LeverageVault[] = [];
  for (const v of VAULTS) {
    const asset = tokens[v.asset];
    const vault = await hub.deploy(artifacts.LeverageVault, [
      `Leveraged ${v.asset} (devnet)`,
      v.name,
      asset.address,
      asset.decimals,
      tokens[v.borrow].address,
      pool,
      v.targetLtvBps,
    ]);
    vaults.push({
      name: v.name,
      vault,
      asset: asset.address,
      borrowToken: tokens[v.borrow].address,
      ...(v.lsdSource ? { lsdSource: v.lsdSource } : {}),
    });
  }
  return vaults;
}
