import type { NetworkTx } from '@swap/contracts';
import type { ChainInfo } from '../chain-directory';
import type { SpokeAdapter, SpokeDeposit, SpokeFee, SpokeMessage, SpokeSourceCheck } from './spoke-network';

/** Loads its network library on first call; why: docs/architecture/chains.md#loading-the-network-libraries. */
export class DeferredAdapter implements SpokeAdapter {
  private adapter?: Promise<SpokeAdapter>;

  constructor(
    readonly chain: ChainInfo,
    private readonly create: () => Promise<SpokeAdapter>,
  ) {}

  private load(): Promise<SpokeAdapter> {
    this.adapter ??= this.create();
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
    return this.load().then((a) => {
      if (!a.latestBlockTime) throw new Error(`${this.chain.key}: its adapter reads no block time`);
      return a.latestBlockTime();
    });
  }
}
