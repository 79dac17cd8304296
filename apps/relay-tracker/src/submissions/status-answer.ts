import { intentHash } from '@swap/chains';
import {
  TERMINAL_STATUSES,
  withDurations,
  type StoredTransition,
  type SubmissionStatus,
  type SubmissionStatusData,
  type SubmissionStatusResponse,
  type SubmissionStreamEvent,
} from '@swap/contracts';
import type { SubmissionRow } from '../settlement/submission-sql';

/**
 * The values of a submission its status answer shows that change over its life, as the
 * trigger submissions_record_events keeps them with each history entry
 * (relay_tracker.submission_events.state; absent keys were null).
 */
export interface SubmissionState {
  status: SubmissionStatus;
  userMessage?: string | null;
  failedAtStep?: string | null;
  processingAttempts: number;
  hubTxHash?: string | null;
  fillTxHash?: string | null;
  deliveryTxHash?: string | null;
  intentCancelled: boolean;
  intentHash?: string | null;
  /** ISO 8601, milliseconds, UTC. */
  updatedAt: string;
}

/** What never changes: the submission's identity and creation. */
type SubmissionIdentity = Pick<SubmissionRow, 'txHash' | 'srcChainKey' | 'intent' | 'intentHash' | 'createdAt'>;

/** The answer of `GET /v1/swaps/submit-tx/status` for a stored submission. */
export function statusAnswer(row: SubmissionRow): SubmissionStatusResponse {
  return { success: true, data: statusData(row, stateOf(row), row.history as StoredTransition[]) };
}

/**
 * The stream's event for history entry `seq` (from 1) of a row just written: its status
 * with the row's other values (what the trigger stored with it), the history up to it.
 */
export function streamEventOf(row: SubmissionRow, seq: number): SubmissionStreamEvent {
  const history = (row.history as StoredTransition[]).slice(0, seq);
  const state = { ...stateOf(row), status: history[seq - 1].status };
  return { seq, status: state.status, data: statusData(row, state, history) };
}

/** A stored event (relay_tracker.submission_events) as the stream sends it. */
export function storedStreamEvent(
  row: SubmissionIdentity & { history: unknown },
  seq: number,
  state: SubmissionState,
): SubmissionStreamEvent {
  return { seq, status: state.status, data: statusData(row, state, (row.history as StoredTransition[]).slice(0, seq)) };
}

function stateOf(row: SubmissionRow): SubmissionState {
  return { ...row, updatedAt: row.updatedAt.toISOString() };
}

/** The status answer's data from the values at one moment and the history up to it. */
function statusData(identity: SubmissionIdentity, state: SubmissionState, history: StoredTransition[]): SubmissionStatusData {
  const result = {
    ...(state.hubTxHash ? { hubTxHash: state.hubTxHash } : {}),
    ...(state.fillTxHash ? { fillTxHash: state.fillTxHash } : {}),
    ...(state.deliveryTxHash ? { deliveryTxHash: state.deliveryTxHash } : {}),
  };
  return {
    txHash: identity.txHash,
    srcChainKey: identity.srcChainKey,
    status: state.status,
    ...(state.userMessage ? { userMessage: state.userMessage } : {}),
    ...(state.failedAtStep ? { failedAtStep: state.failedAtStep as SubmissionStatus } : {}),
    processingAttempts: state.processingAttempts,
    ...(Object.keys(result).length ? { result } : {}),
    ...(state.status === 'failed' ? { intentCancelled: state.intentCancelled } : {}),
    history: withDurations(history),
    intentHash: state.intentHash ?? identity.intentHash ?? intentHash(identity.intent as never),
    createdAt: identity.createdAt.toISOString(),
    updatedAt: state.updatedAt,
    terminal: TERMINAL_STATUSES.includes(state.status),
  };
}
