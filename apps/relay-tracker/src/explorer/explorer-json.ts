/**
 * The explorer's answers written as JSON by PostgreSQL (json_build_object), so the service
 * sends the text it reads: no parse and no serialisation of the rows in Node. Each builder
 * is an SQL expression over the row aliases the queries use (`i` an explorer_intents row,
 * `e` a chain_events row, `f` an explorer_fills row). The wire shape is docs/integrators/explorer.md's.
 */

/** A timestamptz as JavaScript's toISOString writes it (UTC, milliseconds). */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The intent's fields in the public shape (relay chain ids as numbers, as the public client types them). */
export function intentFieldsJson(intent = 'i.intent'): string {
  const text = (field: string) => `'${field}', ${intent}->>'${field}'`;
  return `jsonb_build_object(${text('intentId')}, ${text('creator')}, ${text('inputToken')}, ${text('outputToken')},
    ${text('inputAmount')}, ${text('minOutputAmount')}, ${text('deadline')},
    'allowPartialFill', COALESCE((${intent}->>'allowPartialFill')::boolean, false),
    'srcChain', (${intent}->>'srcChain')::numeric, 'dstChain', (${intent}->>'dstChain')::numeric,
    ${text('srcAddress')}, ${text('dstAddress')}, ${text('solver')}, ${text('data')})`;
}

/** The intents contract's state of the intent (row `i`). */
const STATE_JSON = `json_build_object('exists', true, 'remainingInput', i.remaining_input::text, 'receivedOutput', i.received_output::text,
  'pendingPayment', i.pending_payment)`;

/** The intent's hub events, oldest first (a fill with the state it left and its solver). */
const EVENTS_JSON = `(SELECT COALESCE(json_agg(json_strip_nulls(json_build_object(
    'event', CASE e.kind WHEN 'intent_created' THEN 'IntentCreated' WHEN 'intent_filled' THEN 'IntentFilled' ELSE 'IntentCancelled' END,
    'txHash', e.tx_hash, 'logIndex', e.log_index, 'blockNumber', e.block_number, 'timestamp', ${iso('e.block_time')},
    'intentState', CASE WHEN e.kind = 'intent_filled' THEN json_build_object('remainingInput', e.data->>'remainingInput',
      'receivedOutput', e.data->>'receivedOutput', 'pendingPayment', COALESCE((e.data->>'pendingPayment')::boolean, false)) END,
    'solver', CASE WHEN e.kind = 'intent_filled' THEN e.data->>'solver' END)) ORDER BY e.block_number, e.log_index), '[]'::json)
  FROM relay_tracker.chain_events e
  WHERE e.intent_hash = i.intent_hash AND e.kind IN ('intent_created', 'intent_filled', 'intent_cancelled'))`;

/** Placeholders of the deployment's chains: the hub's chain id, and relay chain ids with their keys (two text arrays). */
export interface ChainParams {
  hubChainId: string;
  relayIds: string;
  keys: string;
}

/** An intent answer (ExplorerIntent) of row `i`, with its events. */
export function intentJson(chains: ChainParams): string {
  const keyOf = (field: string) =>
    `(SELECT m.k FROM unnest(${chains.relayIds}::text[], ${chains.keys}::text[]) AS m(id, k) WHERE m.id = i.intent->>'${field}')`;
  return `json_build_object('intentHash', i.intent_hash, 'txHash', i.tx_hash, 'logIndex', i.log_index, 'chainId', ${chains.hubChainId}::int,
    'chainKey', i.chain_key, 'blockNumber', i.block_number, 'timestamp', ${iso('i.block_time')}, 'open', i.open, 'cancelled', i.cancelled,
    'intent', ${intentFieldsJson()}, 'srcChainKey', ${keyOf('srcChain')}, 'dstChainKey', ${keyOf('dstChain')},
    'intentState', ${STATE_JSON}, 'events', ${EVENTS_JSON})`;
}

/** An orderbook entry of row `i`. */
export const ORDERBOOK_ENTRY_JSON = `json_build_object('intentState', ${STATE_JSON},
  'intentData', ${intentFieldsJson()} || jsonb_build_object('intentHash', i.intent_hash, 'txHash', i.tx_hash, 'blockNumber', i.block_number))`;

/** A volume record of fill row `f` (and, with `withData`, its intent from row `i`). */
export function volumeRecordJson(hubChainId: string, withData: boolean): string {
  return `json_build_object('intentHash', f.intent_hash, 'solver', f.solver, 'inputToken', f.input_token, 'outputToken', f.output_token,
    'amount', f.input_amount::text, 'outputAmount', f.output_amount::text, 'chainId', ${hubChainId}::int, 'blockNumber', f.block_number,
    'txHash', f.tx_hash, 'logIndex', f.log_index, 'timestamp', ${iso('f.block_time')}${withData ? `, 'data', ${intentFieldsJson()}` : ''})`;
}

/** JSON texts (one per row) as one JSON array text. */
export function jsonArray(items: string[]): string {
  return `[${items.join(',')}]`;
}

/** A volume page's cursor: the last record's block and log index, opaque to callers (base64url). */
export function encodeCursor(blockNumber: string, logIndex: number): string {
  return Buffer.from(`${blockNumber}:${logIndex}`).toString('base64url');
}

export function decodeCursor(cursor: string): { block: string; logIndex: number } | undefined {
  const match = /^(0|[1-9]\d{0,15}):(0|[1-9]\d{0,8})$/.exec(Buffer.from(cursor, 'base64url').toString());
  return match ? { block: match[1]!, logIndex: Number(match[2]) } : undefined;
}
