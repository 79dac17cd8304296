import { ServiceMetrics } from '@swap/observability';
import {
  ChainAccess,
  INTENTS_ABI,
  SPOKE_ABI,
  HUB_ASSET_MANAGER_ABI,
  intentHash,
  type ChainInfo,
  type ChainProfile,
  type EvmAdapter,
  type SpokeAdapter,
  type SpokeDeposit,
  type SpokeMessage,
} from '@swap/chains';
import { loadConfig } from '@swap/config';
import { AppError, type Intent, type IntentRequest } from '@swap/contracts';
import crypto from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeAbiParameters, decodeFunctionData, erc20Abi, getAddress, type Hex } from 'viem';
import { ChainCatalog } from '../chain-catalog/chain-catalog';
import { QuoteBuilderConfig } from '../quote-builder.config';
import type { HubIntentState, HubIntentStates } from '../executions/hub-intent-states';
import { HubWallets } from './hub-wallets';
import { IntentBuilderService } from './intent-builder.service';
import { testSigningKeysEnv } from '@swap/testing';

/*
 * The success paths of the intent builder, with every chain read answered by a fixed,
 * in-memory ChainAccess (the chains interface the service takes): the hub clock, the hub
 * wallet factory, ERC-20 allowances and the Solana deposit builder. No network, no devnet:
 * the end-to-end suite (devnet-intents.e2e-spec.ts) runs the same builds against anvil.
 *
 * Expected values are literals worked out by hand (amount scaling, fee arithmetic, the
 * base58 key's bytes, the selectors of the canonical signatures); calldata is decoded with
 * viem against the protocol ABIs and compared whole.
 */

// --- The deployment (a profile file, as CHAIN_PROFILE names one) -------------------------

const INTENTS = '0x6382D6ccD780758C5e8A6123c33ee8F4472F96ef';
const FACTORY = '0xA0ed3047D358648F2C0583B415CffCA571FDB544';
const HUB_ASSET_MANAGER = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
const ARB_ASSET_MANAGER = '0x348BE44F63A458be9C1b13D6fD8e99048F297Bc3';
const ARB_CONNECTION = '0x4555aC13D7338D9E671584C1D118c06B2a3C88eD';
const SOLANA_PROGRAM = 'AnCCJjheynmGqPp6Vgat9DTirGKD4CtQzP8cwTYV8qKH';

const NATIVE = '0x0000000000000000000000000000000000000000';
/** Hub USDC: 6 decimals, its own hub asset. */
const HUB_USDC = '0x29219dd400f2Bf60E5a23d13Be72B486D4038894';
/** Hub wS: 18 decimals, its own hub asset. */
const HUB_WS = '0x039e2fB66102314Ce7b64Ce5Ce3E5183bc94aD38';
/** Arbitrum USDC: 6 decimals, whose hub asset keeps 18 (amounts scale up by 10^12). */
const ARB_USDC = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831';
const ARB_USDC_HUB = '0xdB7BdA65c3a1C51D64dC4444e418684677334109';
/** Arbitrum ETH (native) and its hub asset, 18 decimals on both sides. */
const ARB_ETH_HUB = '0xDcd9578b51EF55239B6e68629D822A8D97C95b86';
/** An Arbitrum token of 18 decimals whose hub asset keeps 6 (amounts scale down by 10^12). */
const ARB_WIDE = '0x000000000000000000000000000000000000D018';
const ARB_WIDE_HUB = '0x000000000000000000000000000000000000d006';
const SOL_NATIVE = '11111111111111111111111111111111';
const SOL_HUB = '0x0c09e69a4528945de6d16c7E469deA6996Fdf636';

const PROFILE: ChainProfile = {
  name: 'intent-builder-spec',
  chains: [
    {
      key: '0x92.sonic',
      name: 'Sonic',
      type: 'EVM',
      chainId: 146,
      relayChainId: '146',
      hub: true,
      assetManager: null,
      connection: null,
      aliases: ['sonic'],
      contracts: { intents: INTENTS, hubWalletFactory: FACTORY, hubAssetManager: HUB_ASSET_MANAGER },
    },
    {
      key: '0xa4b1.arbitrum',
      name: 'Arbitrum',
      type: 'EVM',
      chainId: 42161,
      relayChainId: '23',
      hub: false,
      assetManager: ARB_ASSET_MANAGER,
      connection: ARB_CONNECTION,
      aliases: [],
    },
    {
      key: 'solana',
      name: 'Solana',
      type: 'SOLANA',
      chainId: 'solana',
      relayChainId: '1',
      hub: false,
      assetManager: SOLANA_PROGRAM,
      connection: 'GxS8i6D9qQjbSeniD487CnomUxU2pXt6V8P96T6MkUXB',
      aliases: [],
    },
  ],
  tokens: [
    {
      symbol: 'USDC',
      name: 'USD Coin',
      decimals: 6,
      address: HUB_USDC,
      chainKey: '0x92.sonic',
      hubAsset: HUB_USDC,
      hubDecimals: 6,
      vault: '0x0',
    },
    {
      symbol: 'wS',
      name: 'Wrapped Sonic',
      decimals: 18,
      address: HUB_WS,
      chainKey: '0x92.sonic',
      hubAsset: HUB_WS,
      hubDecimals: 18,
      vault: '0x0',
    },
    {
      symbol: 'USDC',
      name: 'USD Coin',
      decimals: 6,
      address: ARB_USDC,
      chainKey: '0xa4b1.arbitrum',
      hubAsset: ARB_USDC_HUB,
      hubDecimals: 18,
      vault: '0x0',
    },
    {
      symbol: 'ETH',
      name: 'Ether',
      decimals: 18,
      address: NATIVE,
      chainKey: '0xa4b1.arbitrum',
      hubAsset: ARB_ETH_HUB,
      hubDecimals: 18,
      vault: '0x0',
    },
    {
      symbol: 'WIDE',
      name: 'Wide',
      decimals: 18,
      address: ARB_WIDE,
      chainKey: '0xa4b1.arbitrum',
      hubAsset: ARB_WIDE_HUB,
      hubDecimals: 6,
      vault: '0x0',
    },
    {
      symbol: 'SOL',
      name: 'Solana',
      decimals: 9,
      address: SOL_NATIVE,
      chainKey: 'solana',
      hubAsset: SOL_HUB,
      hubDecimals: 9,
      vault: '0x0',
    },
  ],
};

// --- The people -----------------------------------------------------------------------------

const USER = '0x4fc1A3B9c2F4A1B8D1e5e6F7a8B9C0d1E2F3A4B5';
const USER_BYTES = '0x4fc1a3b9c2f4a1b8d1e5e6f7a8b9c0d1e2f3a4b5';
const RECEIVER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const RECEIVER_BYTES = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const FEE_RECEIVER = '0x00000000000000000000000000000000000Fee01';
/** What the fixed hub wallet factory answers for every user. */
const HUB_WALLET = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const HUB_WALLET_BYTES = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const SOL_USER = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
/** SOL_USER’s 32 bytes (base58-decoded by a separate script, not by @solana/kit). */
const SOL_USER_BYTES = '0x7e8c088760bfde1dddcf32c17f209b8242ee52aaf131facd88d0ea2c6d0b06f2';

// --- Fixed chain reads ------------------------------------------------------------------

/** The hub's latest block time, as the fixed hub answers it. */
const HUB_TIME = 1_763_816_100n;
/** randomBytes(32) during a build: 32 bytes of 0x07, so the intent id is fixed. */
const INTENT_ID = '3178606371220444580254889784552217078325058402586211561867463090413301597959';
const SOLANA_DEPOSIT = {
  from: 'the adapter answers this',
  to: 'as it is',
  encoding: 'base64' as const,
  data: 'AQIDBAUGBwg=',
  recentBlockhash: 'EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N',
  lastValidBlockHeight: '312456789',
};

interface Read {
  chain: string;
  read: string;
  args: unknown[];
}

/**
 * ChainAccess with fixed answers: each read is recorded (chain, method, arguments) and
 * answered from memory. Only what the builder asks of a chain is implemented.
 */
class FixedChainAccess extends ChainAccess {
  readonly reads: Read[] = [];
  allowance = 0n;

  constructor() {
    super({ timeoutMs: 1 });
  }

  override evm<T>(chain: ChainInfo, read: (adapter: EvmAdapter) => Promise<T>): Promise<T> {
    const record = (name: string, args: unknown[]) => this.reads.push({ chain: chain.key, read: name, args });
    const adapter: Pick<EvmAdapter, 'chain' | 'latestBlockTime' | 'allowance' | 'hubWalletOf'> = {
      chain,
      latestBlockTime: async () => (record('latestBlockTime', []), HUB_TIME),
      allowance: async (token, owner, spender) => (record('allowance', [token, owner, spender]), this.allowance),
      hubWalletOf: async (factory, relayChainId, user) => (record('hubWalletOf', [factory, relayChainId, user]), HUB_WALLET),
    };
    return read(adapter as unknown as EvmAdapter);
  }

  override spoke<T>(chain: ChainInfo, read: (adapter: SpokeAdapter) => Promise<T>): Promise<T> {
    const adapter: Pick<SpokeAdapter, 'chain' | 'buildDeposit' | 'buildMessage'> = {
      chain,
      buildDeposit: async (deposit: SpokeDeposit) => (
        this.reads.push({ chain: chain.key, read: 'buildDeposit', args: [deposit] }),
        SOLANA_DEPOSIT
      ),
      buildMessage: async (message: SpokeMessage) => (
        this.reads.push({ chain: chain.key, read: 'buildMessage', args: [message] }),
        SOLANA_DEPOSIT
      ),
    };
    return read(adapter as unknown as SpokeAdapter);
  }
}

// --- Decoding helpers (viem against the protocol ABIs; tuple types written out here) -----

const HUB_CALLS = [
  {
    type: 'tuple[]',
    components: [
      { name: 'target', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'data', type: 'bytes' },
    ],
  },
] as const;

function hubCallsOf(payload: string) {
  return decodeAbiParameters(HUB_CALLS, payload as Hex)[0];
}

function decoded(abi: typeof INTENTS_ABI | typeof SPOKE_ABI | typeof erc20Abi | typeof HUB_ASSET_MANAGER_ABI, data: string) {
  return decodeFunctionData({ abi, data: data as Hex });
}

/** Selectors of the canonical signatures (keccak of the text, worked out once). */
const SELECTOR = {
  createIntent: '0x016f02e3',
  cancelIntent: '0xca25d319',
  transfer: '0xc6b4180b',
  sendMessage: '0x6ea9cec9',
  approve: '0x095ea7b3',
  withdrawTo: '0x8379339f',
};

// --------------------------------------------------------------------------------------------

describe('IntentBuilderService: success paths with fixed chain reads', () => {
  const dir = mkdtempSync(join(tmpdir(), 'intent-builder-spec-'));
  writeFileSync(join(dir, 'profile.json'), JSON.stringify(PROFILE));
  const config = loadConfig(QuoteBuilderConfig, { ...testSigningKeysEnv, CHAIN_PROFILE: join(dir, 'profile.json') });
  let chains: FixedChainAccess;
  let builder: IntentBuilderService;
  let hubState: HubIntentState;

  /** A valid body from the hub (USDC) to Arbitrum (USDC), deadline five minutes past the hub clock. */
  const request = (over: Partial<IntentRequest> = {}): IntentRequest => ({
    srcChainKey: '0x92.sonic',
    dstChainKey: '0xa4b1.arbitrum',
    inputToken: HUB_USDC,
    outputToken: ARB_USDC,
    inputAmount: '1000000',
    minOutputAmount: '995000',
    deadline: '1763816400',
    allowPartialFill: true,
    srcAddress: USER,
    dstAddress: RECEIVER,
    solver: NATIVE,
    data: '0x',
    ...over,
  });

  beforeEach(() => {
    chains = new FixedChainAccess();
    hubState = 'open';
    builder = new IntentBuilderService(
      new ChainCatalog(config),
      chains,
      {
        of: async (hash) => (chains.reads.push({ chain: '0x92.sonic', read: 'intentState', args: [hash] }), hubState),
      } as HubIntentStates,
      new HubWallets(chains, new ServiceMetrics('quote-builder', { defaultMetrics: false })),
    );
    jest.spyOn(crypto, 'randomBytes').mockImplementation(((size: number) => Buffer.alloc(size, 0x07)) as typeof crypto.randomBytes);
  });

  afterEach(() => jest.restoreAllMocks());

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a spoke build at once (503) where the hub names no wallet factory, before reading any chain', async () => {
    const bare = structuredClone(PROFILE);
    delete bare.chains[0]!.contracts!.hubWalletFactory;
    writeFileSync(join(dir, 'no-factory.json'), JSON.stringify(bare));
    const noFactory = new IntentBuilderService(
      new ChainCatalog(loadConfig(QuoteBuilderConfig, { ...testSigningKeysEnv, CHAIN_PROFILE: join(dir, 'no-factory.json') })),
      chains,
      {} as HubIntentStates,
      new HubWallets(chains, new ServiceMetrics('quote-builder', { defaultMetrics: false })),
    );
    // A deadline already past: were the clock read started, its refusal would be left unawaited.
    const built = noFactory.build(
      request({ srcChainKey: '0xa4b1.arbitrum', dstChainKey: '0x92.sonic', inputToken: ARB_USDC, outputToken: HUB_USDC, deadline: '1' }),
    );
    await expect(built).rejects.toMatchObject({ code: 'NOT_CONFIGURED' });
    expect(chains.reads).toEqual([]);
  });

  describe('build', () => {
    it('from the hub: createIntent on the intents contract, sent by the user; the minimum output in the output hub asset’s 18 decimals', async () => {
      const built = await builder.build(request({ data: '0x02abcd' }));

      const intent: Intent = {
        intentId: INTENT_ID,
        creator: USER,
        inputToken: HUB_USDC,
        outputToken: ARB_USDC_HUB,
        inputAmount: '1000000',
        // 995 000 units of 6 decimals are 995 000 × 10^12 in the hub asset's 18.
        minOutputAmount: '995000000000000000',
        deadline: '1763816400',
        allowPartialFill: true,
        srcChain: '146',
        dstChain: '23',
        srcAddress: USER_BYTES,
        dstAddress: RECEIVER_BYTES,
        solver: NATIVE,
        data: '0x02abcd',
      };
      expect(built.intent).toEqual(intent);
      expect(built.tx).toEqual({ from: USER, to: INTENTS, value: '0', data: expect.stringMatching(/^0x/), chainId: 146 });
      const data = (built.tx as { data: string }).data;
      expect(data.slice(0, 10)).toBe(SELECTOR.createIntent);
      expect(decoded(INTENTS_ABI, data)).toEqual({
        functionName: 'createIntent',
        args: [
          {
            intentId: BigInt(INTENT_ID),
            creator: USER,
            inputToken: HUB_USDC,
            outputToken: ARB_USDC_HUB,
            inputAmount: 1_000_000n,
            minOutputAmount: 995_000_000_000_000_000n,
            deadline: 1_763_816_400n,
            allowPartialFill: true,
            srcChain: 146n,
            dstChain: 23n,
            srcAddress: USER_BYTES,
            dstAddress: RECEIVER_BYTES,
            solver: NATIVE,
            data: '0x02abcd',
          },
        ],
      });
      // From the hub the relay data is the same call, addressed to the intents contract.
      expect(built.relayData).toEqual({ address: INTENTS, payload: data });
      // One read: the hub clock for the deadline check. The user is the creator: no factory read.
      expect(chains.reads).toEqual([{ chain: '0x92.sonic', read: 'latestBlockTime', args: [] }]);
    });

    it('from the hub with a fixed partner fee (which wins over a percentage): the intent takes the amount less the fee, data names the fee', async () => {
      const built = await builder.build(
        request({ inputAmount: '1000000', partnerFee: { address: FEE_RECEIVER, amount: '2500', percentage: 100 } }),
      );

      // 0x01 ‖ abi.encode(uint256 2500, address FEE_RECEIVER), written out word by word.
      const feeData = `0x01${'9c4'.padStart(64, '0')}${'fee01'.padStart(64, '0')}`;
      expect(built.intent).toMatchObject({ inputAmount: '997500', data: feeData });
      expect(decoded(INTENTS_ABI, (built.tx as { data: string }).data).args[0]).toMatchObject({ inputAmount: 997_500n, data: feeData });
    });

    it('from an EVM spoke (ERC-20, 1% partner fee): the asset manager’s transfer of the whole amount to the hub wallet, carrying approve + createIntent', async () => {
      const built = await builder.build(
        request({
          srcChainKey: '0xa4b1.arbitrum',
          dstChainKey: '0x92.sonic',
          inputToken: ARB_USDC,
          outputToken: HUB_WS,
          inputAmount: '2500000',
          minOutputAmount: '1000000000000000000',
          partnerFee: { address: FEE_RECEIVER, percentage: 100 },
        }),
      );

      // The fee: 100 bps of 2 500 000 = 25 000 units (6 decimals) = 25 000 × 10^12 on the hub.
      // The intent: (2 500 000 − 25 000) × 10^12 = 2 475 000 × 10^12.
      const feeData = `0x01${'58d15e17628000'.padStart(64, '0')}${'fee01'.padStart(64, '0')}`;
      expect(built.intent).toEqual({
        intentId: INTENT_ID,
        creator: HUB_WALLET,
        inputToken: ARB_USDC_HUB,
        outputToken: HUB_WS,
        inputAmount: '2475000000000000000',
        minOutputAmount: '1000000000000000000',
        deadline: '1763816400',
        allowPartialFill: true,
        srcChain: '23',
        dstChain: '146',
        srcAddress: USER_BYTES,
        dstAddress: RECEIVER_BYTES,
        solver: NATIVE,
        data: feeData,
      });

      // The transaction the user signs on Arbitrum: the full 2.5 USDC (fee included) in the token's own units.
      expect(built.tx).toEqual({ from: USER, to: ARB_ASSET_MANAGER, value: '0', data: expect.stringMatching(/^0x/), chainId: 42161 });
      const transferData = (built.tx as { data: string }).data;
      expect(transferData.slice(0, 10)).toBe(SELECTOR.transfer);
      expect(decoded(SPOKE_ABI, transferData)).toEqual({
        functionName: 'transfer',
        args: [ARB_USDC, HUB_WALLET_BYTES, 2_500_000n, built.relayData.payload],
      });

      // The hub calls ride with the deposit, addressed to the hub wallet: approve the whole
      // deposit (input plus fee, in hub units) to the intents contract, then create the intent.
      expect(built.relayData.address).toBe(HUB_WALLET);
      const [approve, create] = hubCallsOf(built.relayData.payload);
      expect({ ...approve, data: decoded(erc20Abi, approve.data) }).toEqual({
        target: ARB_USDC_HUB,
        value: 0n,
        data: { functionName: 'approve', args: [INTENTS, 2_500_000_000_000_000_000n] },
      });
      expect(create.target).toBe(INTENTS);
      expect(create.value).toBe(0n);
      expect(create.data.slice(0, 10)).toBe(SELECTOR.createIntent);
      expect(decoded(INTENTS_ABI, create.data).args[0]).toMatchObject({
        creator: HUB_WALLET,
        inputAmount: 2_475_000_000_000_000_000n,
        srcChain: 23n,
        dstChain: 146n,
        data: feeData,
      });
      expect(hubCallsOf(built.relayData.payload)).toHaveLength(2);

      // The reads: the hub clock, and the user's hub wallet for Arbitrum (relay chain 23), by their raw bytes.
      expect(chains.reads).toEqual([
        { chain: '0x92.sonic', read: 'latestBlockTime', args: [] },
        { chain: '0x92.sonic', read: 'hubWalletOf', args: [FACTORY, 23n, USER_BYTES] },
      ]);
    });

    it('from an EVM spoke with the native token: the amount rides as the transaction’s value', async () => {
      const built = await builder.build(
        request({
          srcChainKey: '0xa4b1.arbitrum',
          dstChainKey: '0x92.sonic',
          inputToken: NATIVE,
          outputToken: HUB_USDC,
          inputAmount: '1000000000000000000',
          minOutputAmount: '3000000',
        }),
      );

      expect(built.tx).toEqual({
        from: USER,
        to: ARB_ASSET_MANAGER,
        value: '1000000000000000000',
        data: expect.stringMatching(/^0x/),
        chainId: 42161,
      });
      expect(decoded(SPOKE_ABI, (built.tx as { data: string }).data)).toEqual({
        functionName: 'transfer',
        args: [NATIVE, HUB_WALLET_BYTES, 1_000_000_000_000_000_000n, built.relayData.payload],
      });
      expect(built.intent).toMatchObject({
        creator: HUB_WALLET,
        inputToken: ARB_ETH_HUB,
        outputToken: HUB_USDC,
        inputAmount: '1000000000000000000',
        minOutputAmount: '3000000',
        data: '0x',
      });
      const [approve] = hubCallsOf(built.relayData.payload);
      expect(decoded(erc20Abi, approve.data)).toEqual({ functionName: 'approve', args: [INTENTS, 1_000_000_000_000_000_000n] });
    });

    it('rounds the input down and the minimum output up where a hub asset keeps fewer decimals than its token', async () => {
      const built = await builder.build(
        request({
          srcChainKey: '0xa4b1.arbitrum',
          dstChainKey: '0xa4b1.arbitrum',
          inputToken: ARB_WIDE,
          outputToken: ARB_USDC,
          // 18 → 6 decimals: 1 000 000.000 000 000 001 × 10^6 drops to 1 000 000.
          inputAmount: '1000000000000000001',
          minOutputAmount: '1',
        }),
      );
      expect(built.intent).toMatchObject({ inputToken: ARB_WIDE_HUB, inputAmount: '1000000', minOutputAmount: '1000000000000' });
      // The spoke still moves the amount as given, in the token's own 18 decimals.
      expect(decoded(SPOKE_ABI, (built.tx as { data: string }).data).args.slice(0, 3)).toEqual([
        ARB_WIDE,
        HUB_WALLET_BYTES,
        1_000_000_000_000_000_001n,
      ]);

      const min = await builder.build(
        request({
          srcChainKey: '0xa4b1.arbitrum',
          inputToken: ARB_USDC,
          outputToken: ARB_WIDE,
          dstChainKey: '0xa4b1.arbitrum',
          minOutputAmount: '1500000000000000001',
        }),
      );
      // A minimum must not be weakened: 1 500 000.000 000 000 001 rounds up to 1 500 001.
      expect(min.intent.minOutputAmount).toBe('1500001');
    });

    it('refuses, before any chain read, an amount that rounds to nothing on the hub (alone, or less the partner fee)', async () => {
      const wide = {
        srcChainKey: '0xa4b1.arbitrum',
        dstChainKey: '0xa4b1.arbitrum',
        inputToken: ARB_WIDE,
        outputToken: ARB_USDC,
        minOutputAmount: '1',
      };
      const refusal = async (over: Partial<IntentRequest>) => {
        const error = await builder.build(request({ ...wide, ...over })).catch((e: unknown) => e);
        if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${JSON.stringify(error)}`);
        return error.toBody().details;
      };
      // 18 → 6 decimals: 999 999 999 999 × 10^-12 is 0.999… of a hub unit.
      expect(await refusal({ inputAmount: '999999999999' })).toEqual([
        {
          field: 'inputAmount',
          rule: 'hubUnits',
          message: 'inputAmount is less than one unit of WIDE on the hub (it keeps 6 decimals): nothing would be swapped',
        },
      ]);
      // The fee is below the amount in token units, but both are one hub unit.
      expect(await refusal({ inputAmount: '1500000000000', partnerFee: { address: RECEIVER, amount: '1000000000000' } })).toEqual([
        {
          field: 'inputAmount',
          rule: 'hubUnits',
          message:
            'inputAmount less the partner fee is less than one unit of WIDE on the hub (it keeps 6 decimals): nothing would be swapped',
        },
      ]);
      expect(chains.reads).toEqual([]);
      // One hub unit is enough.
      await expect(builder.build(request({ ...wide, inputAmount: '1000000000000' }))).resolves.toMatchObject({
        intent: { inputAmount: '1' },
      });
    });

    it('from Solana: the deposit the chain adapter builds, to the hub wallet’s bytes, carrying the hub calls; the user’s key as 32 raw bytes', async () => {
      const built = await builder.build(
        request({
          srcChainKey: 'solana',
          dstChainKey: '0x92.sonic',
          inputToken: SOL_NATIVE,
          outputToken: HUB_WS,
          inputAmount: '1500000000',
          minOutputAmount: '1',
          srcAddress: SOL_USER,
        }),
      );

      expect(built.tx).toEqual(SOLANA_DEPOSIT);
      expect(built.intent).toMatchObject({
        creator: HUB_WALLET,
        inputToken: SOL_HUB,
        inputAmount: '1500000000',
        srcChain: '1',
        dstChain: '146',
        srcAddress: SOL_USER_BYTES,
        dstAddress: RECEIVER_BYTES,
      });
      expect(built.relayData.address).toBe(HUB_WALLET);
      expect(chains.reads).toEqual([
        { chain: '0x92.sonic', read: 'latestBlockTime', args: [] },
        { chain: '0x92.sonic', read: 'hubWalletOf', args: [FACTORY, 1n, SOL_USER_BYTES] },
        {
          chain: 'solana',
          read: 'buildDeposit',
          args: [
            {
              user: SOL_USER,
              token: SOL_NATIVE,
              to: HUB_WALLET_BYTES,
              amount: 1_500_000_000n,
              data: built.relayData.payload,
            },
          ],
        },
      ]);
    });

    it('from Solana: the largest amount a u64 holds is built', async () => {
      const built = await builder.build(
        request({
          srcChainKey: 'solana',
          dstChainKey: '0x92.sonic',
          inputToken: SOL_NATIVE,
          outputToken: HUB_WS,
          inputAmount: '18446744073709551615',
          minOutputAmount: '1',
          srcAddress: SOL_USER,
        }),
      );
      expect(built.intent.inputAmount).toBe('18446744073709551615');
      expect(chains.reads.at(-1)).toMatchObject({ read: 'buildDeposit', args: [{ amount: 18_446_744_073_709_551_615n }] });
    });

    it('takes a deadline one second after the hub clock, and refuses the hub clock itself, naming it', async () => {
      await expect(builder.build(request({ deadline: '1763816101' }))).resolves.toMatchObject({ intent: { deadline: '1763816101' } });
      const error = (await builder.build(request({ deadline: '1763816100' })).catch((e: unknown) => e)) as AppError;
      expect(error).toBeInstanceOf(AppError);
      expect(error.toBody()).toEqual({
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        message: "deadline must be after the hub's latest block time (1763816100); get one from GET /v1/swaps/deadline",
        details: [
          {
            field: 'deadline',
            rule: 'future',
            message: "deadline must be after the hub's latest block time (1763816100); get one from GET /v1/swaps/deadline",
          },
        ],
      });
    });
  });

  describe('buildLimitOrder', () => {
    it('builds the same intent with deadline 0, reading no clock (from the hub: no read at all)', async () => {
      const { deadline: _omitted, ...body } = request();
      const built = await builder.buildLimitOrder(body);
      expect(built.intent).toMatchObject({ deadline: '0', creator: USER, inputAmount: '1000000' });
      expect(decoded(INTENTS_ABI, (built.tx as { data: string }).data).args[0]).toMatchObject({ deadline: 0n });
      expect(chains.reads).toEqual([]);
    });

    it('from a spoke: only the hub wallet is read', async () => {
      const { deadline: _omitted, ...body } = request({
        srcChainKey: '0xa4b1.arbitrum',
        dstChainKey: '0x92.sonic',
        inputToken: ARB_USDC,
        outputToken: HUB_WS,
      });
      const built = await builder.buildLimitOrder(body);
      expect(built.intent).toMatchObject({ deadline: '0', creator: HUB_WALLET });
      expect(chains.reads).toEqual([{ chain: '0x92.sonic', read: 'hubWalletOf', args: [FACTORY, 23n, USER_BYTES] }]);
    });
  });

  describe('deadline', () => {
    it('is the hub’s latest block time plus the offset', async () => {
      await expect(builder.deadline(300)).resolves.toEqual({ deadline: '1763816400' });
      await expect(builder.deadline(0)).resolves.toEqual({ deadline: '1763816100' });
    });
  });

  describe('allowanceCheck', () => {
    const fromArbitrum = request({
      srcChainKey: '0xa4b1.arbitrum',
      dstChainKey: '0x92.sonic',
      inputToken: ARB_USDC,
      outputToken: HUB_WS,
      inputAmount: '2500000',
    });

    it('an ERC-20 on a spoke: the asset manager’s allowance, read on the source chain, against the whole amount', async () => {
      chains.allowance = 2_499_999n;
      await expect(builder.allowanceCheck(fromArbitrum)).resolves.toEqual({
        valid: false,
        approvalRequired: true,
        spender: ARB_ASSET_MANAGER,
        allowance: '2499999',
        amount: '2500000',
      });
      chains.allowance = 2_500_000n;
      await expect(builder.allowanceCheck(fromArbitrum)).resolves.toEqual({
        valid: true,
        approvalRequired: true,
        spender: ARB_ASSET_MANAGER,
        allowance: '2500000',
        amount: '2500000',
      });
      expect(chains.reads).toEqual([
        { chain: '0xa4b1.arbitrum', read: 'allowance', args: [ARB_USDC, USER, ARB_ASSET_MANAGER] },
        { chain: '0xa4b1.arbitrum', read: 'allowance', args: [ARB_USDC, USER, ARB_ASSET_MANAGER] },
      ]);
    });

    it('an ERC-20 on the hub: the intents contract is the spender', async () => {
      chains.allowance = 10n ** 30n;
      await expect(builder.allowanceCheck(request())).resolves.toEqual({
        valid: true,
        approvalRequired: true,
        spender: INTENTS,
        allowance: '1000000000000000000000000000000',
        amount: '1000000',
      });
      expect(chains.reads).toEqual([{ chain: '0x92.sonic', read: 'allowance', args: [HUB_USDC, USER, INTENTS] }]);
    });

    it('a native input or a Solana source needs no approval and reads nothing', async () => {
      await expect(builder.allowanceCheck({ ...fromArbitrum, inputToken: NATIVE, inputAmount: '7' })).resolves.toEqual({
        valid: true,
        approvalRequired: false,
        amount: '7',
      });
      await expect(
        builder.allowanceCheck(
          request({ srcChainKey: 'solana', dstChainKey: '0x92.sonic', inputToken: SOL_NATIVE, outputToken: HUB_WS, srcAddress: SOL_USER }),
        ),
      ).resolves.toEqual({
        valid: true,
        approvalRequired: false,
        amount: '1000000',
      });
      expect(chains.reads).toEqual([]);
    });
  });

  describe('approve', () => {
    it('an ERC-20 on a spoke: approve(asset manager, whole amount) on the token, from the user', async () => {
      const answer = await builder.approve(
        request({
          srcChainKey: '0xa4b1.arbitrum',
          dstChainKey: '0x92.sonic',
          inputToken: ARB_USDC,
          outputToken: HUB_WS,
          inputAmount: '2500000',
        }),
      );
      expect(answer).toEqual({
        approvalRequired: true,
        tx: { from: USER, to: ARB_USDC, value: '0', data: expect.stringMatching(/^0x/), chainId: 42161 },
      });
      expect(answer.tx!.data.slice(0, 10)).toBe(SELECTOR.approve);
      expect(decoded(erc20Abi, answer.tx!.data)).toEqual({ functionName: 'approve', args: [ARB_ASSET_MANAGER, 2_500_000n] });
    });

    it('an ERC-20 on the hub: approve(intents contract, amount)', async () => {
      const answer = await builder.approve(request());
      expect(answer.tx).toEqual({ from: USER, to: HUB_USDC, value: '0', data: expect.stringMatching(/^0x/), chainId: 146 });
      expect(decoded(erc20Abi, answer.tx!.data)).toEqual({ functionName: 'approve', args: [INTENTS, 1_000_000n] });
    });

    it('none for a native input; a network without allowances is a 400 naming it', async () => {
      await expect(
        builder.approve(request({ srcChainKey: '0xa4b1.arbitrum', dstChainKey: '0x92.sonic', inputToken: NATIVE, outputToken: HUB_WS })),
      ).resolves.toEqual({
        approvalRequired: false,
        tx: null,
        message: 'The native token needs no approval',
      });
      await expect(
        builder.approve(
          request({ srcChainKey: 'solana', dstChainKey: '0x92.sonic', inputToken: SOL_NATIVE, outputToken: HUB_WS, srcAddress: SOL_USER }),
        ),
      ).rejects.toMatchObject({
        status: 400,
        details: [
          {
            field: 'srcChainKey',
            rule: 'hasAllowances',
            message: 'srcChainKey: solana has no token allowances; nothing needs approving there (build the swap directly)',
          },
        ],
      });
      expect(chains.reads).toEqual([]);
    });
  });

  describe('cancel', () => {
    /** An open intent from Arbitrum, as the spoke build above made it. */
    const spokeIntent: Intent = {
      intentId: INTENT_ID,
      creator: HUB_WALLET,
      inputToken: ARB_USDC_HUB,
      outputToken: HUB_WS,
      inputAmount: '2475000000000000000',
      minOutputAmount: '1',
      deadline: '1763816400',
      allowPartialFill: false,
      srcChain: '23',
      dstChain: '146',
      srcAddress: USER_BYTES,
      dstAddress: USER_BYTES,
      solver: NATIVE,
      data: '0x',
    };

    it('from the hub: cancelIntent on the intents contract, from the creator', async () => {
      const intent = { ...spokeIntent, creator: USER, inputToken: HUB_USDC, inputAmount: '1000000', srcChain: '146', dstChain: '23' };
      const { tx } = await builder.cancel({ srcChainKey: 'sonic', intent });
      expect(tx).toEqual({ from: USER, to: INTENTS, value: '0', data: expect.stringMatching(/^0x/), chainId: 146 });
      expect(tx.data.slice(0, 10)).toBe(SELECTOR.cancelIntent);
      expect(decoded(INTENTS_ABI, tx.data)).toEqual({
        functionName: 'cancelIntent',
        args: [expect.objectContaining({ intentId: BigInt(INTENT_ID), creator: USER, inputAmount: 1_000_000n, srcChain: 146n })],
      });
      expect(chains.reads).toEqual([{ chain: '0x92.sonic', read: 'intentState', args: [intentHash(intent)] }]);
    });

    it.each([
      ['solved', 'was already solved'],
      ['cancelled', 'was already cancelled'],
      ['unknown', 'is not on the hub'],
    ] as const)('an intent %s on the hub: 409 INTENT_NOT_OPEN naming the state, and no transaction', async (state, says) => {
      hubState = state;
      const error = (await builder.cancel({ srcChainKey: '0xa4b1.arbitrum', intent: spokeIntent }).catch((e: unknown) => e)) as AppError;
      expect(error).toBeInstanceOf(AppError);
      expect(error.toBody()).toEqual({
        statusCode: 409,
        code: 'INTENT_NOT_OPEN',
        message: expect.stringContaining(`Intent ${intentHash(spokeIntent)} ${says}`),
        details: { state, intentHash: intentHash(spokeIntent) },
      });
      expect(chains.reads.map((r) => r.read)).toEqual(['intentState']);
    });

    it('from a spoke: sendMessage through the connection to the hub wallet, which cancels, approves the refund and withdraws it to the sender on the source chain', async () => {
      const { tx } = await builder.cancel({ srcChainKey: '0xa4b1.arbitrum', intent: spokeIntent });
      expect(tx).toEqual({
        from: getAddress(USER_BYTES),
        to: ARB_CONNECTION,
        value: '0',
        data: expect.stringMatching(/^0x/),
        chainId: 42161,
      });
      expect(tx.data.slice(0, 10)).toBe(SELECTOR.sendMessage);
      const message = decoded(SPOKE_ABI, tx.data);
      expect(message.functionName).toBe('sendMessage');
      const [dstChainId, dstAddress, payload] = message.args as readonly [bigint, Hex, Hex];
      expect({ dstChainId, dstAddress }).toEqual({ dstChainId: 146n, dstAddress: HUB_WALLET_BYTES });

      const [cancel, approve, withdraw] = hubCallsOf(payload);
      expect(hubCallsOf(payload)).toHaveLength(3);
      expect({ target: cancel.target, value: cancel.value, call: decoded(INTENTS_ABI, cancel.data).functionName }).toEqual({
        target: INTENTS,
        value: 0n,
        call: 'cancelIntent',
      });
      expect(decoded(INTENTS_ABI, cancel.data).args[0]).toMatchObject({ creator: HUB_WALLET, inputAmount: 2_475_000_000_000_000_000n });
      expect({ ...approve, data: decoded(erc20Abi, approve.data) }).toEqual({
        target: ARB_USDC_HUB,
        value: 0n,
        data: { functionName: 'approve', args: [HUB_ASSET_MANAGER, 2_475_000_000_000_000_000n] },
      });
      expect(withdraw.data.slice(0, 10)).toBe(SELECTOR.withdrawTo);
      expect({ ...withdraw, data: decoded(HUB_ASSET_MANAGER_ABI, withdraw.data) }).toEqual({
        target: HUB_ASSET_MANAGER,
        value: 0n,
        data: { functionName: 'withdrawTo', args: [ARB_USDC_HUB, 23n, USER_BYTES, 2_475_000_000_000_000_000n] },
      });
      expect(chains.reads.map((r) => r.read)).toEqual(['intentState']);
    });

    it('from another network: the message its adapter builds, from the sender whose bytes the intent carries, to the hub wallet, with the same hub calls', async () => {
      const intent = { ...spokeIntent, inputToken: SOL_HUB, srcChain: '1', srcAddress: SOL_USER_BYTES };
      const { tx, relayData } = await builder.cancel({ srcChainKey: 'solana', intent });
      expect(tx).toEqual(SOLANA_DEPOSIT);
      const [read, message] = chains.reads;
      expect(read.read).toBe('intentState');
      expect(message).toMatchObject({ chain: 'solana', read: 'buildMessage' });
      const { user, dstChainId, dstAddress, payload } = message.args[0] as SpokeMessage;
      expect({ user, dstChainId, dstAddress }).toEqual({ user: SOL_USER, dstChainId: 146n, dstAddress: HUB_WALLET_BYTES });
      // Solana's chain keeps only the message payload's hash: the relay needs the payload itself.
      expect(relayData).toEqual({ address: HUB_WALLET, payload });
      const [cancel, , withdraw] = hubCallsOf(payload);
      expect(decoded(INTENTS_ABI, cancel.data).functionName).toBe('cancelIntent');
      expect(decoded(HUB_ASSET_MANAGER_ABI, withdraw.data).args).toEqual([SOL_HUB, 1n, SOL_USER_BYTES, 2_475_000_000_000_000_000n]);
    });

    it('from another network: sender bytes that are none of its addresses are a 400 naming intent.srcAddress', async () => {
      const intent = { ...spokeIntent, srcChain: '1', srcAddress: USER_BYTES };
      await expect(builder.cancel({ srcChainKey: 'solana', intent })).rejects.toMatchObject({
        status: 400,
        details: [
          {
            field: 'intent.srcAddress',
            rule: 'senderBytes',
            message: 'intent.srcAddress must be the bytes of an address on solana, as the build answered them',
          },
        ],
      });
      expect(chains.reads).toEqual([]);
    });
  });
});
