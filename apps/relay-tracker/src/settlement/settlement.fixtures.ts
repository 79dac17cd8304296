import {
  encodeAssetManagerTransfer,
  encodeCreateIntent,
  intentHash,
  INTENTS_ABI,
  intentValues,
  relayDataOf,
  type ChainInfo,
  type ChainProfile,
  type MinedTransaction,
} from '@swap/chains';
import type { IndexedChainEvent, Intent } from '@swap/contracts';
import { encodeAbiParameters, encodeEventTopics, keccak256, toHex, type Hex, type Log } from 'viem';

/* What the settlement specs settle: a hub, a followed spoke, a spoke nobody follows, genuine calldata and index rows. */

export const HUB = { key: '0x92.sonic', relayChainId: '146' };
export const SPOKE = { key: '0xa4b1.arbitrum', relayChainId: '23' };
export const UNFOLLOWED = { key: '0x2105.base', relayChainId: '30' };
export const NETWORK = { key: 'solana', relayChainId: '1' };
export const INTENTS = '0x6382D6ccD780758C5e8A6123c33ee8F4472F96ef';
export const SPOKE_ASSET_MANAGER = '0x348BE44F63A458be9C1b13D6fD8e99048F297Bc3';
const ARB_USDC = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831';
const ARB_USDC_HUB = '0xdB7BdA65c3a1C51D64dC4444e418684677334109';
const HUB_WS = '0x039e2fB66102314Ce7b64Ce5Ce3E5183bc94aD38';

const chain = (c: Partial<ChainInfo> & Pick<ChainInfo, 'key' | 'name' | 'chainId' | 'relayChainId'>): ChainInfo => ({
  type: 'EVM',
  hub: false,
  assetManager: null,
  connection: null,
  aliases: [],
  ...c,
});
export const PROFILE: ChainProfile = {
  name: 'settlement-spec',
  chains: [
    chain({
      ...HUB,
      name: 'Sonic',
      chainId: 146,
      hub: true,
      connection: '0x1D5E9D0b5C1a0F3F9E4b4C1bD2b1C6E2f3A4B5C6',
      contracts: { intents: INTENTS, hubAssetManager: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512' },
    }),
    chain({
      ...SPOKE,
      name: 'Arbitrum',
      chainId: 42161,
      assetManager: SPOKE_ASSET_MANAGER,
      connection: '0x4555aC13D7338D9E671584C1D118c06B2a3C88eD',
    }),
    chain({ ...UNFOLLOWED, name: 'Base', chainId: 8453, assetManager: '0x217B4B6F8d0D0b55Fc9cF5E7A4f0Cc5b1E5C2d11' }),
    chain({
      ...NETWORK,
      name: 'Solana',
      type: 'SOLANA',
      chainId: 'solana',
      assetManager: 'AnCCJjheynmGqPp6Vgat9DTirGKD4CtQzP8cwTYV8qKH',
      connection: 'GxS8i6D9qQjbSeniD487CnomUxU2pXt6V8P96T6MkUXB',
    }),
  ],
  tokens: [],
};

/** RelayTrackerConfig's defaults, written out so a spec computes its times from them. */
export const SETTINGS = { NOT_FOUND_WINDOW_MS: 600_000, FALLBACK_CHECK_MS: 30_000, STEP_POLL_MS: 500, CANCEL_WATCH_MS: 86_400_000 };

export const USER = '0x4fc1A3B9c2F4A1B8D1e5e6F7a8B9C0d1E2F3A4B5';
export const HUB_WALLET = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
/** 2025-11-22T13:00:00Z. */
export const DEADLINE = '1763816400';

export function spokeIntent(over: Partial<Intent> = {}): Intent {
  return {
    intentId: '77',
    creator: HUB_WALLET,
    inputToken: ARB_USDC_HUB,
    outputToken: HUB_WS,
    inputAmount: '2500000000000000000',
    minOutputAmount: '1000000000000000000',
    deadline: DEADLINE,
    allowPartialFill: false,
    srcChain: SPOKE.relayChainId,
    dstChain: HUB.relayChainId,
    srcAddress: USER.toLowerCase(),
    dstAddress: USER.toLowerCase(),
    solver: '0x0000000000000000000000000000000000000000',
    data: '0x',
    ...over,
  };
}

export function hubIntent(over: Partial<Intent> = {}): Intent {
  return spokeIntent({
    creator: USER,
    inputToken: HUB_WS,
    outputToken: ARB_USDC_HUB,
    srcChain: HUB.relayChainId,
    dstChain: SPOKE.relayChainId,
    ...over,
  });
}

export const tx = (label: string): string => keccak256(toHex(label));

export const payloadOf = (intent: Intent): string =>
  relayDataOf(intent, { relayChainId: HUB.relayChainId, intents: INTENTS }).payload.toLowerCase();

export function spokeDeposit(intent: Intent, over: Partial<MinedTransaction> = {}): MinedTransaction {
  const input = encodeAssetManagerTransfer(ARB_USDC, HUB_WALLET.toLowerCase() as Hex, 2_500_000n, payloadOf(intent) as Hex);
  return { status: 'success', blockNumber: 1_200n, from: USER, to: SPOKE_ASSET_MANAGER, input, logs: [], ...over };
}

export function hubCreate(intent: Intent, over: Partial<MinedTransaction> = {}): MinedTransaction {
  const created = INTENTS_ABI.find((item) => item.type === 'event' && item.name === 'IntentCreated')!;
  const log: Log = {
    address: INTENTS,
    topics: encodeEventTopics({ abi: INTENTS_ABI, eventName: 'IntentCreated' }) as [Hex],
    data: encodeAbiParameters(created.inputs, [intentHash(intent), intentValues(intent)]),
    blockNumber: 9_000n,
    blockHash: tx('hub block 9000') as Hex,
    logIndex: 0,
    transactionHash: tx('hub create') as Hex,
    transactionIndex: 0,
    removed: false,
  };
  const logs = over.status === 'reverted' ? [] : [log];
  return { status: 'success', blockNumber: 9_000n, from: USER, to: INTENTS, input: encodeCreateIntent(intent), logs, ...over };
}

let logIndex = 0;
const row = (chainKey: string, txHash: string, kind: IndexedChainEvent['kind'], more: Partial<IndexedChainEvent>): IndexedChainEvent => ({
  chainKey,
  blockNumber: '100',
  blockHash: tx(`block of ${txHash}`),
  logIndex: logIndex++,
  txHash,
  blockTime: new Date().toISOString(),
  kind,
  ...more,
});

export const events = {
  created: (intent: Intent, txHash: string) => row(HUB.key, txHash, 'intent_created', { intentHash: intentHash(intent), data: { intent } }),
  filled: (intent: Intent, txHash: string, remainingInput = '0') =>
    row(HUB.key, txHash, 'intent_filled', {
      intentHash: intentHash(intent),
      data: { receivedOutput: '1', remainingInput, pendingPayment: false },
    }),
  cancelled: (intent: Intent, txHash: string) => row(HUB.key, txHash, 'intent_cancelled', { intentHash: intentHash(intent) }),
  sent: (chainKey: string, txHash: string, peerChain: string, connSn: string) =>
    row(chainKey, txHash, 'message_sent', { peerChain, connSn }),
  received: (chainKey: string, txHash: string, peerChain: string, connSn: string, data?: Record<string, unknown>) =>
    row(chainKey, txHash, 'message_received', { peerChain, connSn, ...(data ? { data } : {}) }),
  activity: (chainKey: string, txHash: string) => row(chainKey, txHash, 'activity', {}),
};
