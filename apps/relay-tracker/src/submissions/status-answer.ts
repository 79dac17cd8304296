import { intentHash } from '@swap/chains';
import {
  TERMINAL_STATUSES,
  withDurations,
  type StoredTransition,
  type SubmissionStatus,
  type SubmissionStatusResponse,
} from '@swap/contracts';
import type { SubmissionRow } from '../settlement/submission-store';

/** The answer of `GET /v1/swaps/submit-tx/status` for a stored submission. */
export function statusAnswer(row: SubmissionRow): SubmissionStatusResponse {
  const result = {
    ...(row.hubTxHash ? { hubTxHash: row.hubTxHash } : {}),
    ...(row.fillTxHash ? { fillTxHash: row.fillTxHash } : {}),
    ...(row.deliveryTxHash ? { deliveryTxHash: row.deliveryTxHash } : {}),
  };
  return {
    success: true,
    data: {
      txHash: row.txHash,
      srcChainKey: row.srcChainKey,
      status: row.status,
      ...(row.userMessage ? { userMessage: row.userMessage } : {}),
      ...(row.failedAtStep ? { failedAtStep: row.failedAtStep as SubmissionStatus } : {}),
      processingAttempts: row.processingAttempts,
      ...(Object.keys(result).length ? { result } : {}),
      ...(row.status === 'failed' ? { intentCancelled: row.intentCancelled } : {}),
      history: withDurations(row.history as unknown as StoredTransition[]),
      intentHash: row.intentHash ?? intentHash(row.intent as never),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      terminal: TERMINAL_STATUSES.includes(row.status),
    },
  };
}
