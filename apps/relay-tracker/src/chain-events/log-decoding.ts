import { INTENTS_ABI, intentFromTuple, RECEIVER_ABI, SPOKE_ABI, type ChainInfo, type ChainDirectory } from '@swap/chains';
import type { ChainEventKind, IndexedChainEvent } from '@swap/contracts';
import { decodeEventLog, type Address, type Log } from 'viem';

interface WatchedContract {
  address: Address;
  role: 'intents' | 'connection' | 'receiver' | 'asset-manager';
}

/** The contracts settlement follows on a chain; see docs/architecture/settlement.md#chain-followers. */
export function watchedContracts(chain: ChainInfo): WatchedContract[] {
  const list: WatchedContract[] = [];
  const add = (address: string | null | undefined, role: WatchedContract['role']) => {
    if (address && /^0x[0-9a-fA-F]{40}$/.test(address)) list.push({ address: address.toLowerCase() as Address, role });
  };
  if (chain.hub) {
    add(chain.contracts?.intents, 'intents');
    add(chain.contracts?.hubAssetManager, 'receiver');
    add(chain.connection, 'connection');
  } else {
    add(chain.connection, 'connection');
    add(chain.assetManager, 'asset-manager');
  }
  return list;
}

export function followedChains(directory: ChainDirectory): ChainInfo[] {
  return directory.chains.filter((c) => c.type === 'EVM' && (c.rpcUrls?.length ?? 0) > 0 && watchedContracts(c).length > 0);
}

/** Logs count by their address, whatever they claim; an undecoded asset-manager transaction is `activity` (its swap is looked at). */
export function decodeLogs(
  chain: ChainInfo,
  contracts: WatchedContract[],
  logs: Log[],
  timeOf: (block: bigint) => Date,
): IndexedChainEvent[] {
  const roles = new Map(contracts.map((c) => [c.address, c.role]));
  const events: IndexedChainEvent[] = [];
  const undecoded = new Map<string, Log>();
  const decodedTxs = new Set<string>();
  for (const log of logs) {
    const role = roles.get(log.address.toLowerCase() as Address);
    if (!role || log.blockNumber === null || log.logIndex === null || !log.transactionHash) continue;
    const txHash = log.transactionHash.toLowerCase();
    const base = {
      chainKey: chain.key,
      blockNumber: log.blockNumber.toString(),
      blockHash: (log.blockHash ?? '').toLowerCase(),
      logIndex: log.logIndex,
      txHash,
      blockTime: timeOf(log.blockNumber).toISOString(),
    };
    const decoded = decodeOne(role, log);
    if (decoded) {
      events.push({ ...base, ...decoded });
      decodedTxs.add(txHash);
    } else if (role === 'asset-manager' && !undecoded.has(txHash)) undecoded.set(txHash, log);
  }
  for (const [txHash, log] of undecoded) {
    if (decodedTxs.has(txHash)) continue;
    events.push({
      chainKey: chain.key,
      blockNumber: log.blockNumber!.toString(),
      blockHash: (log.blockHash ?? '').toLowerCase(),
      logIndex: log.logIndex!,
      txHash,
      blockTime: timeOf(log.blockNumber!).toISOString(),
      kind: 'activity',
    });
  }
  return events.sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : BigInt(a.blockNumber) < BigInt(b.blockNumber) ? -1 : 1,
  );
}

type Decoded = { kind: ChainEventKind } & Pick<IndexedChainEvent, 'intentHash' | 'peerChain' | 'connSn' | 'data'>;

function decodeOne(role: WatchedContract['role'], log: Log): Decoded | undefined {
  try {
    if (role === 'intents') {
      const event = decodeEventLog({ abi: INTENTS_ABI, data: log.data, topics: log.topics });
      switch (event.eventName) {
        case 'IntentCreated':
          return {
            kind: 'intent_created',
            intentHash: event.args.intentHash.toLowerCase(),
            data: { intent: intentFromTuple(event.args.intent) },
          };
        case 'IntentFilled':
          return {
            kind: 'intent_filled',
            intentHash: event.args.intentHash.toLowerCase(),
            data: {
              receivedOutput: event.args.intentState.receivedOutput.toString(),
              remainingInput: event.args.intentState.remainingInput.toString(),
              pendingPayment: event.args.intentState.pendingPayment,
            },
          };
        case 'IntentCancelled':
          return { kind: 'intent_cancelled', intentHash: event.args.intentHash.toLowerCase() };
      }
      return undefined;
    }
    if (role === 'connection') {
      const event = decodeEventLog({ abi: SPOKE_ABI, data: log.data, topics: log.topics });
      if (event.eventName !== 'Message') return undefined;
      return {
        kind: 'message_sent',
        peerChain: event.args.dstChainId.toString(),
        connSn: event.args.nonce.toString(),
        data: { sender: event.args.sender.toLowerCase() },
      };
    }
    const event = decodeEventLog({ abi: RECEIVER_ABI, data: log.data, topics: log.topics });
    if (event.eventName === 'MessageReceived') {
      return {
        kind: 'message_received',
        peerChain: event.args.srcChainId.toString(),
        connSn: event.args.connSn.toString(),
        data: { ok: event.args.callsSucceeded, wallet: event.args.wallet.toLowerCase() },
      };
    }
    return { kind: 'message_received', peerChain: event.args.srcChainId.toString(), connSn: event.args.connSn.toString() };
  } catch {
    return undefined;
  }
}
