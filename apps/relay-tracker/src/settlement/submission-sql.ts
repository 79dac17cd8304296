import type { IndexedChainEvent, Intent, SubmissionStatus } from '@swap/contracts';
import type pg from 'pg';

/** What the index says about a swap, read with its row; only what its status calls for (columnsWithFacts). */
export interface SettlementFacts {
  sourceEvents: IndexedChainEvent[];
  intentEvents: IndexedChainEvent[];
  sourceDeliveries: IndexedChainEvent[];
  fillDeliveries: IndexedChainEvent[];
  hubTime?: Date;
}

export interface SubmissionRow {
  id: string;
  txHash: string;
  srcChainKey: string;
  walletAddress: string;
  intent: unknown;
  relayData: string;
  intentHash: string | null;
  status: SubmissionStatus;
  userMessage: string | null;
  createdAt: Date;
  updatedAt: Date;
  history: unknown;
  processingAttempts: number;
  failedAtStep: string | null;
  verified: boolean;
  notFoundSince: Date | null;
  hubTxHash: string | null;
  fillTxHash: string | null;
  deliveryTxHash: string | null;
  intentCancelled: boolean;
  submittedByOrg: string | null;
  version: bigint;
  eventSeq: number;
  wakeAt: Date | null;
  adopted: boolean;
  claimsPending: boolean;
  traceParent?: string | null;
  operation?: string;
  facts?: SettlementFacts;
}

export type SubmissionPatch = Partial<
  Pick<
    SubmissionRow,
    | 'userMessage'
    | 'failedAtStep'
    | 'verified'
    | 'notFoundSince'
    | 'hubTxHash'
    | 'fillTxHash'
    | 'deliveryTxHash'
    | 'intentCancelled'
    | 'intentHash'
    | 'relayData'
    | 'walletAddress'
    | 'claimsPending'
  >
> & { intent?: Intent };

export const SUBMISSION_COLUMNS = `id::text AS id, tx_hash, src_chain_key, wallet_address, intent, relay_data, intent_hash, status::text AS status,
  user_message, created_at, updated_at, history, processing_attempts, failed_at_step, verified, not_found_since, hub_tx_hash, fill_tx_hash,
  delivery_tx_hash, intent_cancelled, submitted_by_org, version::text AS version, event_seq, wake_at, adopted, claims_pending, trace_parent, operation`;

const COLUMN_OF: Record<keyof SubmissionPatch, string> = {
  userMessage: 'user_message',
  failedAtStep: 'failed_at_step',
  verified: 'verified',
  notFoundSince: 'not_found_since',
  hubTxHash: 'hub_tx_hash',
  fillTxHash: 'fill_tx_hash',
  deliveryTxHash: 'delivery_tx_hash',
  intentCancelled: 'intent_cancelled',
  intentHash: 'intent_hash',
  relayData: 'relay_data',
  walletAddress: 'wallet_address',
  claimsPending: 'claims_pending',
  intent: 'intent',
};

/** Appends the values to `params`. */
export function patchSets(patch: SubmissionPatch, params: unknown[]): string[] {
  const sets: string[] = [];
  for (const [field, value] of Object.entries(patch) as [keyof SubmissionPatch, unknown][]) {
    if (value === undefined) continue;
    params.push(field === 'intent' ? JSON.stringify(value) : value);
    sets.push(`${COLUMN_OF[field]} = $${params.length}${field === 'intent' ? '::jsonb' : ''}`);
  }
  return sets;
}

/** The shape of IndexedChainEvent. */
const EVENT_JSON = (e: string) =>
  `json_build_object('chainKey', ${e}.chain_key, 'blockNumber', ${e}.block_number::text, 'blockHash', ${e}.block_hash, 'logIndex', ${e}.log_index,
    'txHash', ${e}.tx_hash, 'blockTime', ${e}.block_time, 'kind', ${e}.kind, 'intentHash', ${e}.intent_hash, 'peerChain', ${e}.peer_chain,
    'connSn', ${e}.conn_sn::text, 'data', ${e}.data) ORDER BY ${e}.block_number, ${e}.log_index`;

/** Only for text from the profile, never a request's. */
function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** One round trip reads a swap and what the chains said; only the CASE branch of the row's status runs. */
export function columnsWithFacts(hub: { key: string; relayChainId: string }): string {
  const t = 'relay_tracker.submissions';
  const hubKey = literal(hub.key);
  const hubRelay = literal(hub.relayChainId);
  return `${SUBMISSION_COLUMNS},
  CASE WHEN ${t}.status = 'pending' THEN (SELECT json_agg(${EVENT_JSON('e')}) FROM relay_tracker.chain_events e
    WHERE e.chain_key = ${t}.src_chain_key AND e.tx_hash = ${t}.tx_hash) END AS source_events,
  CASE WHEN ${t}.status IN ('relaying', 'posted_execution', 'failed') THEN (SELECT json_agg(${EVENT_JSON('e')}) FROM relay_tracker.chain_events e
    WHERE e.intent_hash = ${t}.intent_hash) END AS intent_events,
  CASE WHEN ${t}.status = 'relaying' THEN (SELECT json_agg(${EVENT_JSON('r')}) FROM relay_tracker.chain_events s
    JOIN relay_tracker.chain_events r ON r.chain_key = ${hubKey} AND r.kind = 'message_received' AND r.conn_sn = s.conn_sn
    WHERE s.chain_key = ${t}.src_chain_key AND s.tx_hash = ${t}.tx_hash AND s.kind = 'message_sent' AND s.peer_chain = ${hubRelay}) END AS source_deliveries,
  CASE WHEN ${t}.status = 'posted_execution' AND ${t}.fill_tx_hash IS NOT NULL THEN (SELECT json_agg(${EVENT_JSON('r')}) FROM relay_tracker.chain_events s
    JOIN relay_tracker.chain_events r ON r.kind = 'message_received' AND r.peer_chain = ${hubRelay} AND r.conn_sn = s.conn_sn
    WHERE s.chain_key = ${hubKey} AND s.tx_hash = ${t}.fill_tx_hash AND s.kind = 'message_sent') END AS fill_deliveries,
  CASE WHEN ${t}.status = 'posted_execution' THEN (SELECT f.cursor_time FROM relay_tracker.chain_followers f WHERE f.chain_key = ${hubKey}) END AS hub_time`;
}

export function submissionOf(r: Record<string, unknown>): SubmissionRow {
  const facts =
    'source_events' in r
      ? {
          sourceEvents: (r.source_events as IndexedChainEvent[] | null) ?? [],
          intentEvents: (r.intent_events as IndexedChainEvent[] | null) ?? [],
          sourceDeliveries: (r.source_deliveries as IndexedChainEvent[] | null) ?? [],
          fillDeliveries: (r.fill_deliveries as IndexedChainEvent[] | null) ?? [],
          ...(r.hub_time ? { hubTime: r.hub_time as Date } : {}),
        }
      : undefined;
  return {
    ...(facts ? { facts } : {}),
    ...(r.trace_parent ? { traceParent: r.trace_parent as string } : {}),
    ...(r.operation ? { operation: r.operation as string } : {}),
    id: r.id as string,
    txHash: r.tx_hash as string,
    srcChainKey: r.src_chain_key as string,
    walletAddress: r.wallet_address as string,
    intent: r.intent,
    relayData: r.relay_data as string,
    intentHash: r.intent_hash as string | null,
    status: r.status as SubmissionStatus,
    userMessage: r.user_message as string | null,
    createdAt: r.created_at as Date,
    updatedAt: r.updated_at as Date,
    history: r.history,
    processingAttempts: r.processing_attempts as number,
    failedAtStep: r.failed_at_step as string | null,
    verified: r.verified as boolean,
    notFoundSince: r.not_found_since as Date | null,
    hubTxHash: r.hub_tx_hash as string | null,
    fillTxHash: r.fill_tx_hash as string | null,
    deliveryTxHash: r.delivery_tx_hash as string | null,
    intentCancelled: r.intent_cancelled as boolean,
    submittedByOrg: r.submitted_by_org as string | null,
    version: BigInt(r.version as string),
    eventSeq: r.event_seq as number,
    wakeAt: r.wake_at as Date | null,
    adopted: r.adopted as boolean,
    claimsPending: r.claims_pending as boolean,
  };
}

export async function submissionsOf(pool: pg.Pool, text: string, params: unknown[]): Promise<SubmissionRow[]> {
  return (await pool.query(text, params)).rows.map(submissionOf);
}
