import { ChainAccess, type ChainInfo, type EvmAdapter, type SpokeAdapter, type SpokeFee } from '@swap/chains';
import { loadConfig } from '@swap/config';
import { AppError, ErrorCode } from '@swap/contracts';
import { BaseError, EstimateGasExecutionError, HttpRequestError } from 'viem';
import { ChainCatalog } from '../chain-catalog/chain-catalog';
import { QuoteBuilderConfig } from '../quote-builder.config';
import { GasEstimatorService } from './gas-estimator.service';
import { testSigningKeysEnv } from '@swap/testing';

/*
 * Gas estimates on the mainnet profile with the chain reads answered by a fixed ChainAccess
 * (the chains interface the service takes): the node's gas and price, the cluster's fee.
 */

const USER = '0x4fc1A3B9c2F4A1B8D1e5e6F7a8B9C0d1E2F3A4B5';
const INTENTS = '0x6382D6ccD780758C5e8A6123c33ee8F4472F96ef';

class FixedChainAccess extends ChainAccess {
  readonly reads: { chain: string; read: string; args: unknown[] }[] = [];
  estimate: () => Promise<bigint> = async () => 21_000n;
  spokeFee: () => Promise<SpokeFee> = async () => ({ gas: '2', price: '5000', fee: '10000', unit: 'lamports' });

  constructor() {
    super({ timeoutMs: 1 });
  }

  override evm<T>(chain: ChainInfo, read: (adapter: EvmAdapter) => Promise<T>): Promise<T> {
    const adapter: Pick<EvmAdapter, 'chain' | 'estimateGas' | 'gasPrice'> = {
      chain,
      estimateGas: async (tx) => (this.reads.push({ chain: chain.key, read: 'estimateGas', args: [tx] }), this.estimate()),
      gasPrice: async () => (this.reads.push({ chain: chain.key, read: 'gasPrice', args: [] }), 1_500_000_000n),
    };
    return read(adapter as unknown as EvmAdapter);
  }

  override spoke<T>(chain: ChainInfo, read: (adapter: SpokeAdapter) => Promise<T>): Promise<T> {
    const adapter: Pick<SpokeAdapter, 'chain' | 'feeOf'> = {
      chain,
      feeOf: async (tx) => (this.reads.push({ chain: chain.key, read: 'feeOf', args: [tx] }), this.spokeFee()),
    };
    return read(adapter as unknown as SpokeAdapter);
  }
}

describe('GasEstimatorService with fixed chain reads', () => {
  const catalog = new ChainCatalog(loadConfig(QuoteBuilderConfig, testSigningKeysEnv));
  let chains: FixedChainAccess;
  let gas: GasEstimatorService;
  beforeEach(() => {
    chains = new FixedChainAccess();
    gas = new GasEstimatorService(catalog, chains);
  });

  it('EVM: the node’s gas for the transaction as its sender sends it now, times the current price, in wei', async () => {
    await expect(gas.estimate('sonic', { from: USER, to: INTENTS, value: '5', data: '0x016f02e3' })).resolves.toEqual({
      chainKey: '0x92.sonic',
      gas: '21000',
      price: '1500000000',
      fee: '31500000000000',
      unit: 'wei',
    });
    expect(chains.reads).toEqual([
      { chain: '0x92.sonic', read: 'estimateGas', args: [{ from: USER, to: INTENTS, value: 5n, data: '0x016f02e3' }] },
      { chain: '0x92.sonic', read: 'gasPrice', args: [] },
    ]);
  });

  it('EVM: a transaction without a value is estimated with value 0', async () => {
    await gas.estimate('0xa4b1.arbitrum', { from: USER, to: INTENTS, data: '0x' });
    expect(chains.reads[0]).toEqual({
      chain: '0xa4b1.arbitrum',
      read: 'estimateGas',
      args: [{ from: USER, to: INTENTS, value: 0n, data: '0x' }],
    });
  });

  it('EVM: a transaction the node would revert is a 422 with the node’s reason; an unreachable node is left to ChainAccess (a 503)', async () => {
    chains.estimate = async () => {
      throw new EstimateGasExecutionError(new BaseError('execution reverted: IntentExpired()'), {});
    };
    const error = (await gas.estimate('sonic', { from: USER, to: INTENTS, data: '0x' }).catch((e: unknown) => e)) as AppError;
    expect(error.toBody()).toEqual({
      statusCode: 422,
      code: 'TRANSACTION_WOULD_FAIL',
      message: 'The transaction would fail on 0x92.sonic now: execution reverted: IntentExpired()',
    });

    const down = new EstimateGasExecutionError(new HttpRequestError({ url: 'https://rpc.example', status: 502 }), {});
    chains.estimate = async () => {
      throw down;
    };
    await expect(gas.estimate('sonic', { from: USER, to: INTENTS, data: '0x' })).rejects.toBe(down);
  });

  it('another network: what its adapter reads of the transaction as the builder answered it', async () => {
    await expect(gas.estimate('solana', { from: 'x', to: 'y', data: 'AQID', encoding: 'base64' })).resolves.toEqual({
      chainKey: 'solana',
      gas: '2',
      price: '5000',
      fee: '10000',
      unit: 'lamports',
    });
    expect(chains.reads).toEqual([{ chain: 'solana', read: 'feeOf', args: [{ from: 'x', to: 'y', data: 'AQID', encoding: 'base64' }] }]);
  });

  it('another network: the adapter’s refusal passes as it is (an expired Solana blockhash is a 422)', async () => {
    const expired = new AppError(422, ErrorCode.TransactionWouldFail, 'The transaction’s blockhash has expired; build it again');
    chains.spokeFee = () => Promise.reject(expired);
    await expect(gas.estimate('solana', { from: 'x', to: 'y', data: 'AQID', encoding: 'base64' })).rejects.toBe(expired);
  });
});
