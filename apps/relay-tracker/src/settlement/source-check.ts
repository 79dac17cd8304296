import {
  decodeHubCalls,
  INTENTS_ABI,
  intentFromTuple,
  intentHash,
  sameIntent,
  SPOKE_ABI,
  type IntentEvents,
  type MinedTransaction,
  type SpokeNetwork,
  type SpokeSourceCheck,
} from '@swap/chains';
import type { Intent } from '@swap/contracts';
import { decodeFunctionData, keccak256, type Address, type Hex } from 'viem';

export type SourceVerdict = { ok: true; intent: Intent; intentHash: Hex; payload: Hex } | { ok: false; userMessage: string };

const NOT_A_SWAP = (chainKey: string) =>
  `This transaction on ${chainKey} is not a swap the platform built: it did not go to the swap contract with an intent. Nothing was swapped.`;

/** `createIntent(intent)`, confirmed by the contract's own IntentCreated in the receipt; the payload is the call itself. */
export function checkHubSource(tx: MinedTransaction, events: IntentEvents, intents: Address, chainKey: string): SourceVerdict {
  if (!tx.to || tx.to.toLowerCase() !== intents.toLowerCase()) return { ok: false, userMessage: NOT_A_SWAP(chainKey) };
  let intent: Intent;
  try {
    const call = decodeFunctionData({ abi: INTENTS_ABI, data: tx.input });
    if (call.functionName !== 'createIntent') return { ok: false, userMessage: NOT_A_SWAP(chainKey) };
    intent = intentFromTuple(call.args[0] as never);
  } catch {
    return { ok: false, userMessage: NOT_A_SWAP(chainKey) };
  }
  const hash = intentHash(intent);
  if (!events.created.some((c) => c.intentHash.toLowerCase() === hash)) return { ok: false, userMessage: NOT_A_SWAP(chainKey) };
  return { ok: true, intent, intentHash: hash, payload: tx.input.toLowerCase() as Hex };
}

/**
 * The asset manager's `transfer(token, to, amount, data)`, or the connection's `sendMessage(dst, hubWallet, data)` of a vault
 * withdrawal (its sender's hub wallet creates the intent from shares it holds), `data` being hub calls that include `createIntent(intent)`.
 */
export function checkSpokeSource(
  tx: MinedTransaction,
  spoke: { assetManager: Address; connection: Address | null },
  intents: Address,
  chainKey: string,
  claimed?: { intent: Intent; intentHash: string | null },
): SourceVerdict {
  const to = tx.to?.toLowerCase();
  const viaMessage = !!spoke.connection && to === spoke.connection.toLowerCase();
  if (!to || (to !== spoke.assetManager.toLowerCase() && !viaMessage)) return { ok: false, userMessage: NOT_A_SWAP(chainKey) };
  try {
    const call = decodeFunctionData({ abi: SPOKE_ABI, data: tx.input });
    const payload = (
      call.functionName === 'transfer' && !viaMessage
        ? call.args[3]
        : call.functionName === 'sendMessage' && viaMessage
          ? call.args[2]
          : '0x'
    ).toLowerCase() as Hex;
    const intent = intentOfHubCalls(payload, intents);
    if (!intent) return { ok: false, userMessage: NOT_A_SWAP(chainKey) };
    // A message runs its calls from its sender's own hub wallet: the intent must be that wallet's, built for that sender.
    if (
      call.functionName === 'sendMessage' &&
      ((call.args[1] as Hex).toLowerCase() !== intent.creator.toLowerCase() || tx.from.toLowerCase() !== intent.srcAddress.toLowerCase())
    )
      return { ok: false, userMessage: NOT_A_SWAP(chainKey) };
    // A true claim's hash was computed at submit.
    const hash = claimed?.intentHash && sameIntent(intent, claimed.intent) ? (claimed.intentHash as Hex) : intentHash(intent);
    return { ok: true, intent, intentHash: hash, payload };
  } catch {
    return { ok: false, userMessage: NOT_A_SWAP(chainKey) };
  }
}

/**
 * A deposit creating an intent for the hub wallet it paid, or a message whose calls that wallet runs (a vault
 * withdrawal), sent by the intent's wallet; where the chain holds only the calls' hash (Solana), the submitted
 * calls count if they hash to it.
 */
export function checkNetworkSource(
  check: Extract<SpokeSourceCheck, { success: true }>,
  network: SpokeNetwork,
  intents: Address,
  chainKey: string,
  claimed: { intent: Intent; intentHash: string | null; payload: string | null },
): SourceVerdict {
  const leg = check.deposit ?? check.message;
  if (!leg) return { ok: false, userMessage: NOT_A_SWAP(chainKey) };
  let payload = leg.data?.toLowerCase() as Hex | undefined;
  if (!payload && leg.dataHash) {
    const submitted = claimed.payload?.toLowerCase() as Hex | undefined;
    if (!submitted || keccak256(submitted) !== leg.dataHash.toLowerCase()) {
      return {
        ok: false,
        userMessage: `The relay data submitted with this ${chainKey} transaction is not what the transaction carries: submit it again with the relayData its build answered. Nothing was swapped yet.`,
      };
    }
    payload = submitted;
  }
  const intent = payload ? intentOfHubCalls(payload, intents) : undefined;
  if (!payload || !intent || leg.to.toLowerCase() !== intent.creator.toLowerCase()) return { ok: false, userMessage: NOT_A_SWAP(chainKey) };
  if (network.addressBytes(check.sender).toLowerCase() !== intent.srcAddress.toLowerCase()) {
    return {
      ok: false,
      userMessage: `This transaction on ${chainKey} was sent by ${check.sender}, not by the wallet the swap was built for, so it is not this swap. Nothing was swapped.`,
    };
  }
  const hash = claimed.intentHash && sameIntent(intent, claimed.intent) ? (claimed.intentHash as Hex) : intentHash(intent);
  return { ok: true, intent, intentHash: hash, payload };
}

export function intentOfHubCalls(payload: Hex, intents: Address): Intent | undefined {
  for (const call of decodeHubCalls(payload)) {
    if (call.target.toLowerCase() !== intents.toLowerCase()) continue;
    try {
      const decoded = decodeFunctionData({ abi: INTENTS_ABI, data: call.data });
      if (decoded.functionName === 'createIntent') return intentFromTuple(decoded.args[0] as never);
    } catch {
      // not an intents call we know
    }
  }
  return undefined;
}
