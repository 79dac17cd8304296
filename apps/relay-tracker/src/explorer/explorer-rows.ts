import type {
  ExplorerEventName,
  ExplorerIntent,
  ExplorerIntentEvent,
  ExplorerIntentFields,
  OrderbookEntry,
  VolumeRecord,
} from '@swap/contracts';

/** An explorer_intents row as the reads select it (numbers as text), with its events (a JSON array, oldest first). */
export interface IntentRow {
  intent_hash: string;
  chain_key: string;
  tx_hash: string;
  log_index: number;
  block_number: string;
  block_time: Date;
  intent: Record<string, unknown>;
  remaining_input: string;
  received_output: string;
  pending_payment: boolean;
  cancelled: boolean;
  open: boolean;
  events?: { kind: string; tx: string; li: number; bn: string; at: string; data: Record<string, unknown> }[];
}

/** The columns of an intent row; `withEvents` adds its hub events in one subquery (no second round trip). */
export function intentColumns(withEvents: boolean): string {
  const base = `i.intent_hash, i.chain_key, i.tx_hash, i.log_index, i.block_number::text AS block_number, i.block_time, i.intent,
    i.remaining_input::text AS remaining_input, i.received_output::text AS received_output, i.pending_payment, i.cancelled, i.open`;
  if (!withEvents) return base;
  return `${base}, (SELECT COALESCE(json_agg(json_build_object('kind', e.kind, 'tx', e.tx_hash, 'li', e.log_index, 'bn', e.block_number::text,
      'at', e.block_time, 'data', e.data) ORDER BY e.block_number, e.log_index), '[]'::json)
    FROM relay_tracker.chain_events e
    WHERE e.intent_hash = i.intent_hash AND e.kind IN ('intent_created', 'intent_filled', 'intent_cancelled')) AS events`;
}

/** A fill row joined with its intent's fields when asked. */
export interface FillRow {
  intent_hash: string;
  solver: string;
  input_token: string;
  output_token: string;
  input_amount: string;
  output_amount: string;
  block_number: string;
  tx_hash: string;
  log_index: number;
  block_time: Date;
  intent: Record<string, unknown> | null;
}

const EVENT_NAMES: Record<string, ExplorerEventName> = {
  intent_created: 'IntentCreated',
  intent_filled: 'IntentFilled',
  intent_cancelled: 'IntentCancelled',
};

/** The intent's fields in the public shape: relay chain ids as numbers (as the public client types them). */
export function intentFields(intent: Record<string, unknown>): ExplorerIntentFields {
  const text = (key: string) => String(intent[key] ?? '');
  return {
    intentId: text('intentId'),
    creator: text('creator'),
    inputToken: text('inputToken'),
    outputToken: text('outputToken'),
    inputAmount: text('inputAmount'),
    minOutputAmount: text('minOutputAmount'),
    deadline: text('deadline'),
    allowPartialFill: intent.allowPartialFill === true,
    srcChain: Number(intent.srcChain),
    dstChain: Number(intent.dstChain),
    srcAddress: text('srcAddress'),
    dstAddress: text('dstAddress'),
    solver: text('solver'),
    data: text('data'),
  };
}

/** What the rows need of the deployment's chains: the hub's chain id, and a relay chain id's key. */
export interface ChainNames {
  hubChainId: number;
  keyOfRelayId(relayChainId: string): string | null;
}

export function toIntent(row: IntentRow, chains: ChainNames): ExplorerIntent {
  const fields = intentFields(row.intent);
  return {
    intentHash: row.intent_hash,
    txHash: row.tx_hash,
    logIndex: row.log_index,
    chainId: chains.hubChainId,
    chainKey: row.chain_key,
    blockNumber: Number(row.block_number),
    timestamp: row.block_time.toISOString(),
    open: row.open,
    cancelled: row.cancelled,
    intent: fields,
    srcChainKey: chains.keyOfRelayId(String(row.intent.srcChain)),
    dstChainKey: chains.keyOfRelayId(String(row.intent.dstChain)),
    intentState: {
      exists: true,
      remainingInput: row.remaining_input,
      receivedOutput: row.received_output,
      pendingPayment: row.pending_payment,
    },
    events: (row.events ?? []).map(toEvent),
  };
}

function toEvent(e: NonNullable<IntentRow['events']>[number]): ExplorerIntentEvent {
  const event: ExplorerIntentEvent = {
    event: EVENT_NAMES[e.kind]!,
    txHash: e.tx,
    logIndex: e.li,
    blockNumber: Number(e.bn),
    timestamp: new Date(e.at).toISOString(),
  };
  if (e.kind === 'intent_filled') {
    event.intentState = {
      remainingInput: String(e.data.remainingInput),
      receivedOutput: String(e.data.receivedOutput),
      pendingPayment: e.data.pendingPayment === true,
    };
    if (typeof e.data.solver === 'string') event.solver = e.data.solver;
  }
  return event;
}

export function toOrderbookEntry(row: IntentRow): OrderbookEntry {
  return {
    intentState: {
      exists: true,
      remainingInput: row.remaining_input,
      receivedOutput: row.received_output,
      pendingPayment: row.pending_payment,
    },
    intentData: { ...intentFields(row.intent), intentHash: row.intent_hash, txHash: row.tx_hash, blockNumber: Number(row.block_number) },
  };
}

export function toVolumeRecord(row: FillRow, chainId: number): VolumeRecord {
  return {
    intentHash: row.intent_hash,
    solver: row.solver,
    inputToken: row.input_token,
    outputToken: row.output_token,
    amount: row.input_amount,
    outputAmount: row.output_amount,
    chainId,
    blockNumber: Number(row.block_number),
    txHash: row.tx_hash,
    logIndex: row.log_index,
    timestamp: row.block_time.toISOString(),
    ...(row.intent ? { data: intentFields(row.intent) } : {}),
  };
}

/** A volume page's cursor: the last record's block and log index, opaque to callers (base64url). */
export function encodeCursor(blockNumber: string, logIndex: number): string {
  return Buffer.from(`${blockNumber}:${logIndex}`).toString('base64url');
}

export function decodeCursor(cursor: string): { block: string; logIndex: number } | undefined {
  const match = /^(0|[1-9]\d{0,15}):(0|[1-9]\d{0,8})$/.exec(Buffer.from(cursor, 'base64url').toString());
  return match ? { block: match[1]!, logIndex: Number(match[2]) } : undefined;
}
