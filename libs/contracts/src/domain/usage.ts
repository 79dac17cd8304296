import type { EnforcementMode } from './api-key';

/** What a key check found, as the portal counts it: a revoked key is deleted, so it reads `invalid`. */
export const UsageOutcomes = ['valid', 'missing', 'invalid', 'scope', 'suspended', 'unavailable'] as const;
export type UsageOutcome = (typeof UsageOutcomes)[number];
/** Outcomes of a key that named its organisation; the others carry no organisation or key. */
export const IDENTIFIED_OUTCOMES: readonly UsageOutcome[] = ['valid', 'scope', 'suspended'];

export const UsageIntervals = ['minute', 'hour', 'day'] as const;
export type UsageInterval = (typeof UsageIntervals)[number];
export const USAGE_INTERVAL_MS: Record<UsageInterval, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };
/** The most points one series answers (a day of minutes). */
export const USAGE_MAX_POINTS = 1_440;

/** About 250 bytes a row: well under NATS' 1 MiB message limit. */
export const USAGE_BATCH_ROWS = 1_000;
/** Ids kept longer than a batch is retried: never counted twice. */
export const USAGE_BATCH_MAX_AGE_MS = 3_600_000;
export const USAGE_BATCH_IDS_KEPT_MS = 24 * 3_600_000;

/** Minute rows are rolled up to hours after this; hours are kept for USAGE_RETENTION_DAYS. */
export const USAGE_MINUTES_KEPT_MS = 2 * 24 * 3_600_000;
export const USAGE_RETENTION_DAYS = 90;
/** Readiness: the share of an organisation's identified requests that had their scope, over this window. */
export const READINESS_WINDOW_DAYS = 7;
export const READINESS_THRESHOLD = 0.999;

/**
 * Requests on keyed routes in one minute, for one organisation, key, route and outcome;
 * `orgId` and `keyId` empty when no key identified one (none, or an invalid one).
 */
export interface UsageRow {
  minute: string;
  orgId: string;
  keyId: string;
  /** `METHOD /path` as routed, e.g. `POST /v1/swaps/quote`. */
  route: string;
  outcome: UsageOutcome;
  requests: number;
  /** Answered 4xx (a refused key included) and 5xx. */
  clientErrors: number;
  serverErrors: number;
}

/** `batchId` makes a resent batch count once. */
export interface UsageBatch {
  batchId: string;
  rows: UsageRow[];
}

export interface UsageCounts {
  requests: number;
  clientErrors: number;
  serverErrors: number;
  outcomes: Record<UsageOutcome, number>;
}

export interface UsageReport {
  from: string;
  to: string;
  interval: UsageInterval;
  keyId?: string;
  /** Every counted request; `errorShare` is the share answered 4xx or 5xx. */
  totals: UsageCounts & { errorShare: number };
  routes: (UsageCounts & { route: string })[];
  /** One point per interval from `from` up to `to`, zero where nothing was counted. */
  series: (UsageCounts & { at: string })[];
}

/** docs/architecture/usage.md#readiness. */
export type ReadinessStatus = 'ready' | 'too-early' | 'not-ready';

export interface OrgRouteReadiness {
  route: string;
  identified: number;
  valid: number;
  share: number;
  firstSeen: string;
  status: ReadinessStatus;
}

export interface OrgReadiness {
  from: string;
  to: string;
  threshold: number;
  routes: OrgRouteReadiness[];
  /** Every keyed route's effective mode (its own, else its family's). */
  modes: { route: string; mode: EnforcementMode }[];
}

/** The deployment's side: per route, the share of all requests that carried no key or an invalid one. */
export interface DeploymentRouteReadiness {
  route: string;
  /** The route's effective mode; absent for a route no longer keyed. */
  mode?: EnforcementMode;
  requests: number;
  unidentified: number;
  unidentifiedShare: number;
}

export interface DeploymentReadiness {
  from: string;
  to: string;
  threshold: number;
  routes: DeploymentRouteReadiness[];
  organisations: ({ orgId: string } & Pick<OrgReadiness, 'routes'>)[];
}
