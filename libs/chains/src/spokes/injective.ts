import { addressProblemOn, type NetworkTx } from '@swap/contracts';
import { bytesToHex, hexToBytes, isHex } from 'viem';
import type { ChainInfo } from '../chain-registry';
import type { SpokeAdapter, SpokeDeposit, SpokeFee, SpokeMessage, SpokeNetwork, SpokeSourceCheck } from './spoke-network';

/**
 * Injective: an address travels inside an intent as the UTF-8 bytes of its bech32 text
 * (the public client's encodeAddress); the asset manager takes a CosmWasm Uint128 amount.
 */
export const INJECTIVE: SpokeNetwork = {
  type: 'INJECTIVE',
  addressBytes: (address) => bytesToHex(new TextEncoder().encode(address)),
  addressOfBytes: (bytes) => {
    if (!isHex(bytes)) return undefined;
    const text = new TextDecoder('utf-8', { fatal: false }).decode(hexToBytes(bytes));
    return addressProblemOn('INJECTIVE', 'address', text) === undefined ? text : undefined;
  },
  maxAmount: (1n << 128n) - 1n,
  maxAmountName: '128 bits',
  depositCarriesDataHash: false,
  createAdapter: (chain, options) => new DeferredInjectiveAdapter(chain, options),
};

/**
 * The adapter, its library loaded on first use: @injectivelabs/sdk-ts takes about a second
 * to load (and pulls ESM-only packages), which nothing that never builds for Injective
 * should pay.
 */
class DeferredInjectiveAdapter implements SpokeAdapter {
  private adapter?: Promise<SpokeAdapter>;

  constructor(
    readonly chain: ChainInfo,
    private readonly options: { timeoutMs: number },
  ) {}

  private load(): Promise<SpokeAdapter> {
    this.adapter ??= import('./injective-adapter').then(({ InjectiveAdapter }) => new InjectiveAdapter(this.chain, this.options));
    return this.adapter;
  }

  buildDeposit(deposit: SpokeDeposit): Promise<NetworkTx> {
    return this.load().then((a) => a.buildDeposit(deposit));
  }

  buildMessage(message: SpokeMessage): Promise<NetworkTx> {
    return this.load().then((a) => a.buildMessage(message));
  }

  feeOf(tx: NetworkTx): Promise<SpokeFee> {
    return this.load().then((a) => a.feeOf(tx));
  }

  checkSource(txId: string): Promise<SpokeSourceCheck> {
    return this.load().then((a) => a.checkSource(txId));
  }

  latestBlockTime(): Promise<bigint> {
    return this.load().then((a) => a.latestBlockTime!());
  }
}
