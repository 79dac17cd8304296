import { checksummedIfAddress } from '@swap/contracts';

/* Answers written as JSON text from the columns read (cheaper than JSON built in PostgreSQL); shape: docs/integrators/explorer.md. */

export function intentFieldColumns(intent = 'i.intent'): string {
  const fields: [string, string][] = [
    ['f_intent_id', 'intentId'],
    ['f_creator', 'creator'],
    ['f_input_token', 'inputToken'],
    ['f_output_token', 'outputToken'],
    ['f_input_amount', 'inputAmount'],
    ['f_min_output', 'minOutputAmount'],
    ['f_deadline', 'deadline'],
    ['f_partial', 'allowPartialFill'],
    ['f_src_chain', 'srcChain'],
    ['f_dst_chain', 'dstChain'],
    ['f_src_address', 'srcAddress'],
    ['f_dst_address', 'dstAddress'],
    ['f_solver', 'solver'],
    ['f_data', 'data'],
  ];
  return fields.map(([alias, field]) => `${intent}->>'${field}' AS ${alias}`).join(', ');
}

const ms = (column: string) => `(extract(epoch from ${column}) * 1000)::bigint::text`;

export const INTENT_COLUMNS = `i.intent_hash, i.chain_key, i.tx_hash, i.log_index, i.block_number::text AS block_number, ${ms('i.block_time')} AS at_ms,
  i.remaining_input::text AS remaining_input, i.received_output::text AS received_output, i.pending_payment, i.cancelled, i.open,
  ${intentFieldColumns()}`;

/** All null for an intent with no events. */
export const EVENT_COLUMNS = `e.kind AS e_kind, e.tx_hash AS e_tx, e.log_index AS e_log, e.block_number::text AS e_block, ${ms('e.block_time')} AS e_ms,
  e.data->>'remainingInput' AS e_remaining, e.data->>'receivedOutput' AS e_received, e.data->>'pendingPayment' AS e_pending, e.data->>'solver' AS e_solver`;

export const EVENTS_JOIN = `LEFT JOIN relay_tracker.chain_events e
  ON e.intent_hash = i.intent_hash AND e.kind IN ('intent_created', 'intent_filled', 'intent_cancelled')`;

export const INTENT_EVENT_ORDER = 'e.block_number, e.log_index';

export interface IntentFieldRow {
  f_intent_id: string | null;
  f_creator: string | null;
  f_input_token: string | null;
  f_output_token: string | null;
  f_input_amount: string | null;
  f_min_output: string | null;
  f_deadline: string | null;
  f_partial: string | null;
  f_src_chain: string | null;
  f_dst_chain: string | null;
  f_src_address: string | null;
  f_dst_address: string | null;
  f_solver: string | null;
  f_data: string | null;
}

export interface IntentRow extends IntentFieldRow {
  intent_hash: string;
  chain_key: string;
  tx_hash: string;
  log_index: number;
  block_number: string;
  at_ms: string;
  remaining_input: string;
  received_output: string;
  pending_payment: boolean;
  cancelled: boolean;
  open: boolean;
}

export interface EventRow {
  e_kind: string | null;
  e_tx: string;
  e_log: number;
  e_block: string;
  e_ms: string;
  e_remaining: string | null;
  e_received: string | null;
  e_pending: string | null;
  e_solver: string | null;
}

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
  at_ms: string;
}

export interface ChainNames {
  hubChainId: number;
  keyOfRelayId: Map<string, string>;
}

const text = (value: string | null | undefined) => JSON.stringify(value ?? '');
/** EIP-55 (the index keeps lower case). */
const address = (value: string | null | undefined) => {
  const form = value ? checksummedIfAddress(value) : undefined;
  return form === undefined ? text(value) : `"${form}"`;
};

const DAY_MS = 86_400_000;
const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
const dayPrefixes = new Map<number, string>();
const LAST_4_DIGIT_YEAR_MS = Date.UTC(10_000, 0, 1);

/** As `toISOString`, quoted; the date part kept per day (toISOString cost a microsecond a row). */
export function iso(msText: string): string {
  const ms = Number(msText);
  if (!(Number.isInteger(ms) && ms >= 0 && ms < LAST_4_DIGIT_YEAR_MS)) return `"${new Date(ms).toISOString()}"`;
  const day = Math.floor(ms / DAY_MS);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    if (dayPrefixes.size >= 1_000) dayPrefixes.clear();
    prefix = `"${new Date(day * DAY_MS).toISOString().slice(0, 11)}`;
    dayPrefixes.set(day, prefix);
  }
  let rest = ms - day * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  return `${prefix}${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${THREE_DIGITS[rest - seconds * 1000]}Z"`;
}

/** Relay chain ids as numbers, as the public client types them. */
export function intentFieldsJson(r: IntentFieldRow): string {
  return `{"intentId":${text(r.f_intent_id)},"creator":${address(r.f_creator)},"inputToken":${address(r.f_input_token)},"outputToken":${address(
    r.f_output_token,
  )},"inputAmount":${text(r.f_input_amount)},"minOutputAmount":${text(r.f_min_output)},"deadline":${text(r.f_deadline)},"allowPartialFill":${
    r.f_partial === 'true'
  },"srcChain":${Number(r.f_src_chain)},"dstChain":${Number(r.f_dst_chain)},"srcAddress":${text(r.f_src_address)},"dstAddress":${text(
    r.f_dst_address,
  )},"solver":${address(r.f_solver)},"data":${text(r.f_data)}}`;
}

function stateJson(r: IntentRow): string {
  return `{"exists":true,"remainingInput":"${r.remaining_input}","receivedOutput":"${r.received_output}","pendingPayment":${r.pending_payment}}`;
}

const EVENT_NAMES: Record<string, string> = {
  intent_created: 'IntentCreated',
  intent_filled: 'IntentFilled',
  intent_cancelled: 'IntentCancelled',
};

function eventJson(e: EventRow): string {
  const base = `{"event":"${EVENT_NAMES[e.e_kind!]}","txHash":${text(e.e_tx)},"logIndex":${e.e_log},"blockNumber":${e.e_block},"timestamp":${iso(e.e_ms)}`;
  if (e.e_kind !== 'intent_filled') return `${base}}`;
  const state = `{"remainingInput":${text(e.e_remaining)},"receivedOutput":${text(e.e_received)},"pendingPayment":${e.e_pending === 'true'}}`;
  return `${base},"intentState":${state}${e.e_solver ? `,"solver":${address(e.e_solver)}` : ''}}`;
}

export function intentsJson(rows: (IntentRow & EventRow)[], chains: ChainNames): string[] {
  const out: string[] = [];
  for (let start = 0; start < rows.length;) {
    let end = start + 1;
    while (end < rows.length && rows[end]!.intent_hash === rows[start]!.intent_hash) end++;
    const r = rows[start]!;
    const events = rows.slice(start, end).filter((e) => e.e_kind !== null);
    const key = (id: string | null) => {
      const found = id === null ? undefined : chains.keyOfRelayId.get(id);
      return found === undefined ? 'null' : text(found);
    };
    out.push(
      `{"intentHash":"${r.intent_hash}","txHash":${text(r.tx_hash)},"logIndex":${r.log_index},"chainId":${chains.hubChainId},"chainKey":${text(
        r.chain_key,
      )},"blockNumber":${r.block_number},"timestamp":${iso(r.at_ms)},"open":${r.open},"cancelled":${r.cancelled},"intent":${intentFieldsJson(
        r,
      )},"srcChainKey":${key(r.f_src_chain)},"dstChainKey":${key(r.f_dst_chain)},"intentState":${stateJson(r)},"events":[${events
        .map(eventJson)
        .join(',')}]}`,
    );
    start = end;
  }
  return out;
}

export function orderbookEntryJson(r: IntentRow): string {
  const fields = intentFieldsJson(r);
  return `{"intentState":${stateJson(r)},"intentData":${fields.slice(0, -1)},"intentHash":"${r.intent_hash}","txHash":${text(
    r.tx_hash,
  )},"blockNumber":${r.block_number}}}`;
}

export function volumeRecordJson(f: FillRow & Partial<IntentFieldRow>, hubChainId: number, withData: boolean): string {
  const base = `{"intentHash":"${f.intent_hash}","solver":${address(f.solver)},"inputToken":${address(f.input_token)},"outputToken":${address(f.output_token)},"amount":"${
    f.input_amount
  }","outputAmount":"${f.output_amount}","chainId":${hubChainId},"blockNumber":${f.block_number},"txHash":"${f.tx_hash}","logIndex":${
    f.log_index
  },"timestamp":${iso(f.at_ms)}`;
  return withData && f.f_intent_id !== undefined ? `${base},"data":${intentFieldsJson(f as IntentFieldRow)}}` : `${base}}`;
}

export function encodeCursor(blockNumber: string, logIndex: number, desc: boolean): string {
  return Buffer.from(`${blockNumber}:${logIndex}:${desc ? 'd' : 'a'}`).toString('base64url');
}

export function decodeCursor(cursor: string): { block: string; logIndex: number; desc: boolean } | undefined {
  const match = /^(0|[1-9]\d{0,15}):(0|[1-9]\d{0,8}):([ad])$/.exec(Buffer.from(cursor, 'base64url').toString());
  return match ? { block: match[1]!, logIndex: Number(match[2]), desc: match[3] === 'd' } : undefined;
}
