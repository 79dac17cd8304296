import { intentHash } from '@swap/chains';
import {
  TERMINAL_STATUSES,
  withDurations,
  type LeverageOperation,
  type StoredTransition,
  type SubmissionStatus,
  type SubmissionStatusData,
  type SubmissionStatusResponse,
  type SubmissionStreamEvent,
} from '@swap/contracts';
import type { SubmissionRow } from '../settlement/submission-sql';

/** What the trigger submissions_record_events keeps with each history entry (absent keys were null). */
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
  updatedAt: string;
}

type SubmissionIdentity = Pick<SubmissionRow, 'txHash' | 'srcChainKey' | 'intent' | 'intentHash' | 'createdAt' | 'operation'>;

export function statusAnswer(row: SubmissionRow): SubmissionStatusResponse {
  return { success: true, data: statusData(row, stateOf(row), row.history as StoredTransition[]) };
}

/** History entry `seq` (from 1) of a row just written, with what the trigger stored with it. */
export function streamEventOf(row: SubmissionRow, seq: number): SubmissionStreamEvent {
  const history = (row.history as StoredTransition[]).slice(0, seq);
  const state = { ...stateOf(row), status: history[seq - 1].status };
  return { seq, status: state.status, data: statusData(row, state, history) };
}

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
    ...(identity.operation && identity.operation !== 'swap' ? { operation: identity.operation as LeverageOperation } : {}),
  };
}
