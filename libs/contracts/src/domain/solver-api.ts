import { ErrorCode, type ErrorBody } from '../errors';
import type { Intent } from './intent';

// The solver API (`/v1/intent/*`) and the marketplace frames, in the public network's snake_case wire format.

export const SolverStatusCode = {
  NotFound: -1,
  NotStarted: 1,
  InProgress: 2,
  Solved: 3,
  Failed: 4,
} as const;
export type SolverStatusCode = (typeof SolverStatusCode)[keyof typeof SolverStatusCode];

/** Error codes of the public solver API (`{ detail: { code, message } }`). */
export const SolverErrorCode = {
  NoPathFound: -4,
  NoPrivateLiquidity: -5,
  QuoteNotFound: -8,
  QuoteNotMatch: -9,
  IntentDataNotMatchQuote: -10,
  IntentNotFound: -12,
  QuoteExpired: -13,
  MaxInputAmount: -14,
  MaxDiffOutput: -15,
  Stopped: -16,
  /** This platform's own: the client's limit on the keyless solver API was reached (HTTP 429, Retry-After). */
  RateLimited: -429,
  Unknown: -999,
} as const;

export interface SolverErrorBody {
  detail: { code: number; message: string };
}

/** `POST /v1/intent/quote`: tokens are hub assets; `amount` is after the partner fee. */
export interface SolverQuoteRequest {
  token_src: string;
  token_dst: string;
  amount: string;
  quote_type: 'exact_input';
}

export interface SolverQuoteResponse {
  quoted_amount: string;
  quote_uuid: string;
  expires_at: string;
}

/** `POST /v1/intent/execute`: the hub transaction that created the intent. */
export interface SolverExecuteRequest {
  intent_tx_hash: string;
  quote_uuid?: string;
}

export interface SolverExecuteResponse {
  answer: 'OK';
  intent_hash: string;
}

export interface SolverStatusRequest {
  intent_tx_hash: string;
}

export interface SolverStatusResponse {
  status: SolverStatusCode;
  fill_tx_hash?: string;
}

/* The marketplace connection: JSON text frames over a WebSocket (docs/integrators/solvers.md). */

export interface WelcomeFrame {
  type: 'welcome';
  solver_id: string;
  name: string;
  /** The marketplace sends a heartbeat this often and drops a solver silent for 2.5 times as long. */
  heartbeat_ms: number;
  rfq_deadline_ms: number;
}

export interface HeartbeatFrame {
  type: 'heartbeat';
  at?: number;
}

/** A request for quote: answer with `quote` or `decline` before `answer_by` (UNIX ms). */
export interface RfqFrame {
  type: 'rfq';
  rfq_id: string;
  token_src: string;
  token_dst: string;
  amount: string;
  quote_type: 'exact_input';
  /** Relay chain ids of the swap's source and destination networks. */
  src_chain_id: string;
  dst_chain_id: string;
  answer_by: number;
  /** W3C trace context of the quote asking, when the platform traces; optional to read. */
  traceparent?: string;
}

export interface ExecuteFrame {
  type: 'execute';
  intent_hash: string;
  intent_tx_hash: string;
  intent: Intent;
  quote_uuid: string | null;
  /** Until then (UNIX ms) only `exclusive_solver` (the quote's winner) is handed the intent. */
  exclusive_until: number | null;
  exclusive_solver: string | null;
  traceparent?: string;
}

export interface ErrorFrame {
  type: 'error';
  code: number;
  message: string;
}

export type MarketplaceFrame = WelcomeFrame | HeartbeatFrame | RfqFrame | ExecuteFrame | ErrorFrame;

export interface QuoteFrame {
  type: 'quote';
  rfq_id: string;
  /** Output in the smallest unit of `token_dst` (a hub asset). */
  quoted_amount: string;
}

export interface DeclineFrame {
  type: 'decline';
  rfq_id: string;
  /** -4 no path, -5 no liquidity, -8 not enough liquidity. */
  code: number;
  message?: string;
}

/** A fill the solver sent; the marketplace checks it on the hub before it counts. */
export interface FilledFrame {
  type: 'filled';
  intent_hash: string;
  fill_tx_hash: string;
}

export type SolverFrame = QuoteFrame | DeclineFrame | FilledFrame | HeartbeatFrame;

export interface SolverView {
  id: string;
  name: string;
  prefix: string;
  status: 'active' | 'suspended';
  createdAt: string;
  /** Connections open to the replica that answered (operators: sum over replicas). */
  connected?: number;
}

const PROTOCOL_CODES: Partial<Record<string, number>> = {
  [ErrorCode.NoRoute]: SolverErrorCode.NoPathFound,
  [ErrorCode.NoLiquidity]: SolverErrorCode.NoPrivateLiquidity,
  [ErrorCode.QuoteNotFound]: SolverErrorCode.QuoteNotFound,
  [ErrorCode.QuoteMismatch]: SolverErrorCode.IntentDataNotMatchQuote,
  [ErrorCode.IntentNotFound]: SolverErrorCode.IntentNotFound,
  [ErrorCode.QuoteExpired]: SolverErrorCode.QuoteExpired,
  [ErrorCode.NoSolverAvailable]: SolverErrorCode.Stopped,
};

export function solverErrorOf(error: ErrorBody): SolverErrorBody {
  const detailCode = (error.details as { protocolCode?: unknown } | undefined)?.protocolCode;
  const code = typeof detailCode === 'number' ? detailCode : (PROTOCOL_CODES[error.code] ?? SolverErrorCode.Unknown);
  return { detail: { code, message: error.message } };
}
