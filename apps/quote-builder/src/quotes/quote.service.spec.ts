import { ServiceMetrics } from '@swap/observability';
import type { ChainProfile } from '@swap/chains';
import { loadConfig } from '@swap/config';
import type { QuoteMessage, QuoteRecord } from '@swap/contracts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import pino from 'pino';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IntentBuilderService } from '../intents/intent-builder.service';
import type { QuoteRecords } from '../marketplace/quote-records';
import type { RfqOutcome, RfqRequest, RfqService } from '../marketplace/rfq.service';
import { QuoteBuilderConfig } from '../quote-builder.config';
import { ChainCatalog } from '../chain-catalog/chain-catalog';
import { QuoteService } from './quote.service';
import { testSigningKeysEnv } from '@swap/testing';

/** A hub whose USDC asset keeps 18 decimals, so amounts must be converted both ways. */
const PROFILE: ChainProfile = {
  name: 'decimals',
  chains: [
    {
      key: '0x92.sonic',
      name: 'Hub',
      type: 'EVM',
      chainId: 146,
      relayChainId: '146',
      hub: true,
      assetManager: null,
      connection: null,
      aliases: [],
    },
    {
      key: '0xa4b1.arbitrum',
      name: 'Arb',
      type: 'EVM',
      chainId: 42161,
      relayChainId: '23',
      hub: false,
      assetManager: null,
      connection: null,
      aliases: [],
    },
  ],
  tokens: [
    {
      symbol: 'USDC',
      name: 'USD Coin',
      decimals: 6,
      address: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
      chainKey: '0xa4b1.arbitrum',
      hubAsset: '0x00000000000000000000000000000000000000a1',
      hubDecimals: 18,
      vault: '0x0',
    },
    {
      symbol: 'WBTC',
      name: 'Bitcoin',
      decimals: 8,
      address: '0x0000000000000000000000000000000000000b7c',
      chainKey: '0x92.sonic',
      hubAsset: '0x0000000000000000000000000000000000000b7c',
      hubDecimals: 8,
      vault: '0x0',
    },
    {
      symbol: 'USDC',
      name: 'USD Coin',
      decimals: 6,
      address: '0x29219dd400f2Bf60E5a23d13Be72B486D4038894',
      chainKey: '0x92.sonic',
      hubAsset: '0x00000000000000000000000000000000000000a2',
      hubDecimals: 18,
      vault: '0x0',
    },
  ],
};

describe('QuoteService: the fee comes off first, amounts travel in hub units', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quote-spec-'));
  writeFileSync(join(dir, 'profile.json'), JSON.stringify(PROFILE));
  const config = loadConfig(QuoteBuilderConfig, { ...testSigningKeysEnv, CHAIN_PROFILE: join(dir, 'profile.json') });
  const asked: RfqRequest[] = [];
  let solverAnswer = 0n;
  const rfq = {
    ask: async (request: RfqRequest): Promise<RfqOutcome> => {
      asked.push(request);
      return {
        rfqId: 'r',
        asked: [{ id: 's', name: 'solver' }],
        outcomes: new Map([['s', { quotedAmount: solverAnswer, ms: 1 }]]),
        sentMs: 0,
        lastAnswerMs: 1,
        elapsedMs: 1,
      };
    },
  } as unknown as RfqService;
  const recorded: Omit<QuoteRecord, 'id' | 'createdAt' | 'expiresAt' | 'requestId'>[] = [];
  const records = {
    record: async (quote: (typeof recorded)[number]) => (
      recorded.push(quote),
      { ...quote, id: 'q-1', createdAt: 'now', expiresAt: 'later', requestId: null }
    ),
  } as unknown as QuoteRecords;
  const service = new QuoteService(
    new ChainCatalog(config),
    rfq,
    records,
    {} as IntentBuilderService,
    config,
    pino({ level: 'silent' }),
    new ServiceMetrics('quote-builder', { defaultMetrics: false }),
  );
  const body = (over: Partial<QuoteMessage> = {}): QuoteMessage => ({
    tokenSrc: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
    tokenSrcChainKey: '0xa4b1.arbitrum',
    tokenDst: '0x0000000000000000000000000000000000000b7c',
    tokenDstChainKey: '0x92.sonic',
    amount: '2500000',
    quoteType: 'exact_input',
    includeTxData: false,
    ...over,
  });

  beforeEach(() => {
    asked.length = 0;
    recorded.length = 0;
  });

  it('asks solvers for the amount less the partner fee, in the hub asset’s 18 decimals', async () => {
    solverAnswer = 3_000n;
    const quote = await service.quote(body({ partnerFee: { address: '0x000000000000000000000000000000000000fEe5', percentage: 100 } }));
    // 1% of 2.5 USDC is 25 000 units; 2 475 000 units (6 decimals) are 2.475e18 on the hub.
    expect(asked).toEqual([
      {
        token_src: '0x00000000000000000000000000000000000000A1',
        token_dst: '0x0000000000000000000000000000000000000B7C',
        amount: '2475000000000000000',
        src_chain_id: '23',
        dst_chain_id: '146',
      },
    ]);
    expect(quote).toEqual({ quotedAmount: '3000', quoteId: 'q-1', expiresAt: 'later', feeAmount: '25000' });
    expect(recorded[0]).toMatchObject({
      amount: '2500000',
      feeAmount: '25000',
      hubAmountIn: '2475000000000000000',
      hubQuotedAmount: '3000',
      quotedAmount: '3000',
      solver: 'solver',
    });
  });

  it('lets a fixed amount win over a percentage', async () => {
    solverAnswer = 1n;
    await service.quote(body({ partnerFee: { address: '0x000000000000000000000000000000000000fEe5', percentage: 100, amount: '500000' } }));
    expect(asked[0].amount).toBe('2000000000000000000');
  });

  it('converts the quoted hub amount back to the destination token’s decimals, rounding down', async () => {
    solverAnswer = 1_234_567_890_123_456_789n;
    const quote = await service.quote(
      body({
        tokenSrc: '0x0000000000000000000000000000000000000b7c',
        tokenSrcChainKey: '0x92.sonic',
        tokenDst: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
        tokenDstChainKey: '0xa4b1.arbitrum',
        amount: '100000000',
      }),
    );
    expect(asked[0]).toMatchObject({ amount: '100000000', src_chain_id: '146', dst_chain_id: '23' });
    expect(quote.quotedAmount).toBe('1234567');
  });

  it('refuses a fee that leaves nothing, and every body problem at once, before asking anyone', async () => {
    await expect(
      service.quote(body({ partnerFee: { address: '0x000000000000000000000000000000000000fEe5', amount: '2500000' } })),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    const error = await service
      .quote(body({ tokenSrcChainKey: 'nowhere', tokenDst: '0x0000000000000000000000000000000000000bad', includeTxData: true }))
      .catch((e: unknown) => e);
    expect((error as { details: { field: string }[] }).details.map((d) => d.field)).toEqual([
      'srcAddress',
      'dstAddress',
      'tokenSrcChainKey',
      'tokenDst',
    ]);
    const bad = await service
      .quote(body({ dstAddress: 'not-an-address', includeTxData: true, srcAddress: '0x000000000000000000000000000000000000fee5' }))
      .catch((e: unknown) => e);
    expect((bad as { details: { field: string }[] }).details.map((d) => d.field)).toEqual(['dstAddress']);
    expect(asked).toEqual([]);
  });
});
