import { Injectable } from '@nestjs/common';
import { ChainAccess, LENDING_POOL_ABI, LEVERAGE_VAULT_ABI, type EvmAdapter } from '@swap/chains';
import { AppError, ErrorCode, type LeverageVault, type VaultRead, type VaultReadRequest, type VaultReads } from '@swap/contracts';
import { getAddress, type Address } from 'viem';
import { ChainCatalog } from '../chain-catalog/chain-catalog';
import { LsdAprSource } from './lsd-apr';

const WAD = 10n ** 18n;
const BPS = 10_000n;

/** A vault's loop parameters never change: read once per vault. */
interface LoopParameters {
  pool: Address;
  targetLtvBps: bigint;
}

/** The leveraged-yield reads, from the hub: docs/integrators/leverage-yield.md#reads. */
@Injectable()
export class VaultReadsService {
  private readonly loops = new Map<string, Promise<LoopParameters>>();

  constructor(
    private readonly catalog: ChainCatalog,
    private readonly chains: ChainAccess,
    private readonly lsd: LsdAprSource,
  ) {}

  read<R extends VaultRead>(request: VaultReadRequest & { read: R }): Promise<VaultReads[R]>;
  async read(request: VaultReadRequest): Promise<VaultReads[VaultRead]> {
    const vault = this.catalog.chains.findLeverageVault(request.vault);
    if (!vault)
      throw AppError.notFound(`Unknown vault: ${request.vault} is not a leveraged-yield vault of this deployment`, ErrorCode.VaultNotFound);
    const address = vault.vault as Address;
    const amount = BigInt(request.amount ?? 0);
    const owner = request.owner ? getAddress(request.owner) : undefined;
    switch (request.read) {
      case 'asset':
        return { asset: await this.hub((a) => a.view({ address, abi: LEVERAGE_VAULT_ABI, functionName: 'asset' })) };
      case 'totalAssets':
        return { totalAssets: String(await this.hub((a) => a.view({ address, abi: LEVERAGE_VAULT_ABI, functionName: 'totalAssets' }))) };
      case 'previewDeposit':
        return {
          shares: String(
            await this.hub((a) => a.view({ address, abi: LEVERAGE_VAULT_ABI, functionName: 'previewDeposit', args: [amount] })),
          ),
        };
      case 'previewWithdraw':
        return {
          shares: String(
            await this.hub((a) => a.view({ address, abi: LEVERAGE_VAULT_ABI, functionName: 'previewWithdraw', args: [amount] })),
          ),
        };
      case 'previewRedeem':
        return {
          assets: String(
            await this.hub((a) => a.view({ address, abi: LEVERAGE_VAULT_ABI, functionName: 'previewRedeem', args: [amount] })),
          ),
        };
      case 'shareBalance':
        return {
          balance: String(await this.hub((a) => a.view({ address, abi: LEVERAGE_VAULT_ABI, functionName: 'balanceOf', args: [owner!] }))),
        };
      case 'maxWithdraw':
        return {
          maxWithdraw: String(
            await this.hub((a) => a.view({ address, abi: LEVERAGE_VAULT_ABI, functionName: 'maxWithdraw', args: [owner!] })),
          ),
        };
      case 'position': {
        const [collateral, debt, ltv, healthFactor, idleAsset] = await this.hub((a) =>
          a.view({ address, abi: LEVERAGE_VAULT_ABI, functionName: 'position' }),
        );
        return {
          collateral: String(collateral),
          debt: String(debt),
          ltv: String(ltv),
          healthFactor: String(healthFactor),
          idleAsset: String(idleAsset),
        };
      }
      case 'aprLsd':
        return this.lsd.aprOf(vault.lsdSource);
      case 'apr':
        return this.apr(vault);
      case 'aprEffective': {
        const [apr, lsdApr] = await Promise.all([this.apr(vault), this.lsd.aprOf(vault.lsdSource)]);
        const effectiveSupply = BigInt(apr.supplyAprRay) + BigInt(lsdApr.aprRay);
        return {
          ...apr,
          lsdApr,
          effectiveSupplyAprRay: effectiveSupply.toString(),
          effectiveNetAprRay: netApr(effectiveSupply, BigInt(apr.borrowAprRay), BigInt(apr.leverageMultiplierWad)).toString(),
        };
      }
    }
  }

  /** The pool's supply rate of the asset and borrow rate of the borrowed token, levered at the target: supply + L/(1 − L) × (supply − borrow). */
  private async apr(vault: LeverageVault): Promise<VaultReads['apr']> {
    const { pool, targetLtvBps } = await this.loopOf(vault);
    const [[supply], [, borrow]] = await Promise.all([
      this.hub((a) => a.view({ address: pool, abi: LENDING_POOL_ABI, functionName: 'rates', args: [vault.asset as Address] })),
      this.hub((a) => a.view({ address: pool, abi: LENDING_POOL_ABI, functionName: 'rates', args: [vault.borrowToken as Address] })),
    ]);
    const leverage = (targetLtvBps * WAD) / (BPS - targetLtvBps);
    return {
      supplyAprRay: supply.toString(),
      borrowAprRay: borrow.toString(),
      targetLtvBps: targetLtvBps.toString(),
      leverageMultiplierWad: leverage.toString(),
      netAprRay: netApr(supply, borrow, leverage).toString(),
    };
  }

  private loopOf(vault: LeverageVault): Promise<LoopParameters> {
    const key = vault.vault.toLowerCase();
    let held = this.loops.get(key);
    if (!held) {
      const address = vault.vault as Address;
      held = Promise.all([
        this.hub((a) => a.view({ address, abi: LEVERAGE_VAULT_ABI, functionName: 'pool' })),
        this.hub((a) => a.view({ address, abi: LEVERAGE_VAULT_ABI, functionName: 'targetLtvBps' })),
      ]).then(([pool, targetLtvBps]) => ({ pool, targetLtvBps }));
      held.catch(() => this.loops.delete(key));
      this.loops.set(key, held);
    }
    return held;
  }

  private hub<T>(read: (adapter: EvmAdapter) => Promise<T>): Promise<T> {
    return this.chains.evm(this.catalog.chains.hub, read);
  }
}

export function netApr(supplyRay: bigint, borrowRay: bigint, leverageWad: bigint): bigint {
  return supplyRay + (leverageWad * (supplyRay - borrowRay)) / WAD;
}
