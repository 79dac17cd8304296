import type { Intent } from '@swap/contracts';
import { concat, decodeAbiParameters, encodeAbiParameters, encodeFunctionData, erc20Abi, parseAbi, type Address, type Hex } from 'viem';
import { INTENT_TUPLE, intentValues } from './intent';

const INTENT_STATE = {
  type: 'tuple',
  components: [
    { name: 'exists', type: 'bool' },
    { name: 'remainingInput', type: 'uint256' },
    { name: 'receivedOutput', type: 'uint256' },
    { name: 'pendingPayment', type: 'bool' },
  ],
} as const;

const errors = [
  'IntentAlreadyExists',
  'IntentNotFound',
  'Unauthorized',
  'InvalidSolver',
  'PartialFillNotAllowed',
  'InvalidAmount',
  'IntentExpired',
  'InvalidReceiver',
  'TransferFailed',
] as const;

/** The hub intents contract as protocol-facts.md and the public client's ABI give it (selectors checked in the specs). */
export const INTENTS_ABI = [
  { type: 'function', name: 'createIntent', stateMutability: 'nonpayable', inputs: [{ ...INTENT_TUPLE, name: 'intent' }], outputs: [] },
  { type: 'function', name: 'cancelIntent', stateMutability: 'nonpayable', inputs: [{ ...INTENT_TUPLE, name: 'intent' }], outputs: [] },
  {
    type: 'function',
    name: 'fillIntent',
    stateMutability: 'nonpayable',
    inputs: [
      { ...INTENT_TUPLE, name: 'intent' },
      { type: 'uint256', name: '_inputAmount' },
      { type: 'uint256', name: '_outputAmount' },
      { type: 'uint256', name: '_externalFillId' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'intentStates',
    stateMutability: 'view',
    inputs: [{ type: 'bytes32', name: 'intentHash' }],
    outputs: INTENT_STATE.components,
  },
  {
    type: 'event',
    name: 'IntentCreated',
    inputs: [
      { type: 'bytes32', name: 'intentHash', indexed: false },
      { ...INTENT_TUPLE, name: 'intent', indexed: false },
    ],
  },
  { type: 'event', name: 'IntentCancelled', inputs: [{ type: 'bytes32', name: 'intentHash', indexed: false }] },
  {
    type: 'event',
    name: 'IntentFilled',
    inputs: [
      { type: 'bytes32', name: 'intentHash', indexed: false },
      { ...INTENT_STATE, name: 'intentState', indexed: false },
    ],
  },
  ...errors.map((name) => ({ type: 'error' as const, name, inputs: [] as const })),
] as const;

export const SPOKE_ABI = parseAbi([
  'function transfer(address token, bytes to, uint256 amount, bytes data) payable',
  'function sendMessage(uint256 dstChainId, bytes dstAddress, bytes payload)',
  'event Message(uint256 indexed srcChainId, uint256 indexed dstChainId, uint256 nonce, address sender, bytes dstAddress, bytes payload)',
]);

/** Deliveries of relayed messages as the devnet's receivers announce them; see docs/architecture/chains.md#relayed-messages. */
export const RECEIVER_ABI = parseAbi([
  'event MessageReceived(uint256 indexed srcChainId, uint256 indexed connSn, address wallet, bool callsSucceeded)',
  'event Released(uint256 indexed srcChainId, uint256 indexed connSn, address token, address to, uint256 amount)',
]);

export const HUB_WALLET_FACTORY_ABI = parseAbi(['function getDeployedAddress(uint256 chainId, bytes user) view returns (address)']);

/** ERC-4626 reads, and the devnet vault's position and loop parameters (tools/devnet/CONTRACTS.md#leveraged-yield). */
export const LEVERAGE_VAULT_ABI = parseAbi([
  'function asset() view returns (address)',
  'function totalAssets() view returns (uint256)',
  'function previewDeposit(uint256 assets) view returns (uint256)',
  'function previewWithdraw(uint256 assets) view returns (uint256)',
  'function previewRedeem(uint256 shares) view returns (uint256)',
  'function balanceOf(address owner) view returns (uint256)',
  'function maxWithdraw(address owner) view returns (uint256)',
  'function position() view returns (uint256 collateral, uint256 debt, uint256 ltvBps, uint256 healthFactorWad, uint256 idle)',
  'function pool() view returns (address)',
  'function targetLtvBps() view returns (uint256)',
  'function deposit(uint256 assets, address receiver) returns (uint256)',
  'function redeem(uint256 shares, address receiver, address owner) returns (uint256)',
]);

export const LENDING_POOL_ABI = parseAbi(['function rates(address asset) view returns (uint256 supplyRateRay, uint256 borrowRateRay)']);

/** Devnet only (tools/devnet/CONTRACTS.md): only a profile naming `hubAssetManager` gets withdrawals. */
export const HUB_ASSET_MANAGER_ABI = parseAbi(['function withdrawTo(address hubAsset, uint256 dstChain, bytes to, uint256 amount)']);

export function encodeWithdrawTo(hubAsset: Address, dstChain: bigint, to: Hex, amount: bigint): Hex {
  return encodeFunctionData({ abi: HUB_ASSET_MANAGER_ABI, functionName: 'withdrawTo', args: [hubAsset, dstChain, to, amount] });
}

/** One call a hub wallet runs: `(address target, uint256 value, bytes data)`. */
export interface HubCall {
  target: Address;
  value: bigint;
  data: Hex;
}

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

export function encodeHubCalls(calls: HubCall[]): Hex {
  return encodeAbiParameters(HUB_CALLS, [calls]);
}

export function decodeHubCalls(data: Hex): readonly HubCall[] {
  return decodeAbiParameters(HUB_CALLS, data)[0];
}

export function encodeCreateIntent(intent: Intent): Hex {
  return encodeFunctionData({ abi: INTENTS_ABI, functionName: 'createIntent', args: [intentValues(intent)] });
}

export function encodeCancelIntent(intent: Intent): Hex {
  return encodeFunctionData({ abi: INTENTS_ABI, functionName: 'cancelIntent', args: [intentValues(intent)] });
}

export function encodeApprove(spender: Address, amount: bigint): Hex {
  return encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] });
}

export function encodeAssetManagerTransfer(token: Address, to: Hex, amount: bigint, data: Hex): Hex {
  return encodeFunctionData({ abi: SPOKE_ABI, functionName: 'transfer', args: [token, to, amount, data] });
}

export function encodeSendMessage(dstChainId: bigint, dstAddress: Hex, payload: Hex): Hex {
  return encodeFunctionData({ abi: SPOKE_ABI, functionName: 'sendMessage', args: [dstChainId, dstAddress, payload] });
}

/** `intent.data` carrying a partner fee: `0x01 ‖ abi.encode(uint256 fee, address receiver)`. */
export function partnerFeeData(fee: bigint, receiver: Address): Hex {
  return concat(['0x01', encodeAbiParameters([{ type: 'uint256' }, { type: 'address' }], [fee, receiver])]);
}

/** The partner fee `intent.data` carries (0 when it carries none, or is not a fee record). */
export function partnerFeeOf(data: string): bigint {
  if (!/^0x01[0-9a-fA-F]{128}$/.test(data)) return 0n;
  return decodeAbiParameters([{ type: 'uint256' }, { type: 'address' }], `0x${data.slice(4)}` as Hex)[0];
}

/** What the relay is handed with a source transaction: where the message goes on the hub, and its bytes. */
export interface RelayData {
  address: string;
  payload: Hex;
}

/** See docs/architecture/chains.md#relay-data. */
export function relayDataOf(intent: Intent, hub: { relayChainId: string; intents: Address }): RelayData {
  const create = encodeCreateIntent(intent);
  if (intent.srcChain === hub.relayChainId) return { address: hub.intents, payload: create };
  const deposit = BigInt(intent.inputAmount) + partnerFeeOf(intent.data);
  const payload = encodeHubCalls([
    { target: intent.inputToken as Address, value: 0n, data: encodeApprove(hub.intents, deposit) },
    { target: hub.intents, value: 0n, data: create },
  ]);
  return { address: intent.creator, payload };
}
