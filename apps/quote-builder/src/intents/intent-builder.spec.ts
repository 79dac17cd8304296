import { ServiceMetrics } from '@swap/observability';
import { ChainAccess } from '@swap/chains';
import { getAddress } from 'viem';
import { loadConfig } from '@swap/config';
import { AppError, type IntentRequest } from '@swap/contracts';
import { QuoteBuilderConfig } from '../quote-builder.config';
import { ChainCatalog } from '../chain-catalog/chain-catalog';
import type { HubIntentStates } from '../executions/hub-intent-states';
import { HubWallets } from './hub-wallets';
import { IntentBuilderService } from './intent-builder.service';
import { testSigningKeysEnv } from '@swap/testing';

describe('IntentBuilderService on the mainnet profile (no chain reads)', () => {
  const config = loadConfig(QuoteBuilderConfig, testSigningKeysEnv);
  const chains = new ChainAccess({ timeoutMs: config.CHAIN_RPC_TIMEOUT_MS });
  const builder = new IntentBuilderService(
    new ChainCatalog(config),
    chains,
    {} as HubIntentStates, // builds read no intent state
    new HubWallets(chains, new ServiceMetrics('quote-builder', { defaultMetrics: false })),
  );
  const base: IntentRequest = {
    srcChainKey: '0x92.sonic',
    dstChainKey: '0xa4b1.arbitrum',
    inputToken: '0x0000000000000000000000000000000000000000',
    outputToken: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
    inputAmount: '1000',
    minOutputAmount: '1',
    deadline: '0',
    allowPartialFill: false,
    srcAddress: '0x4fc1a3b9c2f4a1b8d1e5e6f7a8b9c0d1e2f3a4b5',
    dstAddress: 'not-an-address',
    solver: '0x0000000000000000000000000000000000000000',
    data: '0x',
  };

  it('reports every body problem at once, before reading any chain', async () => {
    const error = (await builder.build(base).catch((e: unknown) => e)) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect((error.details as { field: string }[]).map((d) => d.field)).toEqual(['inputToken', 'dstAddress']);
    expect(error.message).toContain("inputToken: the hub's native token cannot be deposited directly");
  });

  it('builds from the mainnet hub contracts with no chain read where none is needed (a hub limit order)', async () => {
    const built = await builder.build({ ...base, inputToken: '0x29219dd400f2Bf60E5a23d13Be72B486D4038894', dstAddress: base.srcAddress });
    expect(built.tx).toMatchObject({ to: '0x6382D6ccD780758C5e8A6123c33ee8F4472F96ef', value: '0' });
    expect(built.intent).toMatchObject({ creator: getAddress(base.srcAddress), deadline: '0', srcChain: '146', dstChain: '23' });
  });

  it('says the deployment lacks an RPC endpoint rather than building half a transaction', async () => {
    const fromSpoke = {
      ...base,
      srcChainKey: '0xa4b1.arbitrum',
      dstChainKey: '0x92.sonic',
      inputToken: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
      outputToken: '0x29219dd400f2Bf60E5a23d13Be72B486D4038894',
      dstAddress: base.srcAddress,
    };
    const error = (await builder.build(fromSpoke).catch((e: unknown) => e)) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error.getStatus()).toBe(503);
    expect(error.code).toBe('NOT_CONFIGURED');
    expect(error.message).toBe('No RPC endpoint is configured for 0x92.sonic');
  });

  it('computes partner fees for the fee route, naming the query fields', () => {
    expect(builder.partnerFee('1000000', { address: '0x000000000000000000000000000000000000fee5', percentage: 10 })).toMatchObject({
      fee: '1000',
      inputAmount: '999000',
    });
    expect(builder.partnerFee('1000000')).toEqual({ amount: '1000000', fee: '0', inputAmount: '1000000', partnerFee: null });
    expect(() => builder.partnerFee('10', { address: '0x000000000000000000000000000000000000fee5', amount: '10' })).toThrow(
      'the partner fee must be less than the input amount',
    );
  });
});
