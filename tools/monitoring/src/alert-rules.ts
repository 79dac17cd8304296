/** The objectives and cause alerts as Prometheus rule groups: docs/operators/monitoring.md. */

/** Replaced by the chart: monitoring.runbookBaseUrl and monitoring.hubChainKey. */
export const RUNBOOK_BASE = '__RUNBOOK_BASE__';
export const HUB_CHAIN = '__HUB_CHAIN__';

export interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels: { severity: 'page' | 'ticket'; slo?: string; window?: string };
  annotations: { summary: string; description: string; runbook_url: string };
}

export interface RecordingRule {
  record: string;
  expr: string;
}

export interface RuleGroup {
  name: string;
  rules: (AlertRule | RecordingRule)[];
}

export interface Slo {
  name: string;
  title: string;
  objective: number;
  /** PromQL of the bad share over a window, `$w` standing for it. */
  badShare: string;
  runbook: string;
}

const SLO_WINDOW_DAYS = 30;

export const SLOS: Slo[] = [
  {
    name: 'api-availability',
    title: 'Public API availability: requests through api-gateway answered without a 5xx',
    objective: 0.999,
    badShare: `sum(rate(http_requests_total{service="api-gateway",status_code=~"5.."}[$w])) / sum(rate(http_requests_total{service="api-gateway"}[$w]))`,
    runbook: 'api-availability',
  },
  {
    name: 'quote-latency',
    title: 'Quote latency: POST /v1/swaps/quote answered within 2.5 s',
    objective: 0.99,
    badShare: `1 - sum(rate(http_request_duration_seconds_bucket{service="swap-gateway",route="/v1/swaps/quote",le="2.5"}[$w])) / sum(rate(http_request_duration_seconds_count{service="swap-gateway",route="/v1/swaps/quote"}[$w]))`,
    runbook: 'quote-latency',
  },
  {
    name: 'submit-first-transition',
    title: 'Submit to first transition: a submitted swap leaves pending within 60 s',
    objective: 0.99,
    // Prometheus 3 stores a whole-number bucket bound as "60.0".
    badShare: `1 - sum(rate(settlement_step_seconds_bucket{step="pending",le=~"60(\\\\.0)?"}[$w])) / sum(rate(settlement_step_seconds_count{step="pending"}[$w]))`,
    runbook: 'submit-first-transition',
  },
  {
    name: 'fill-visible',
    title: 'Fill to solved visible: the hub index within 30 s of the hub head',
    objective: 0.995,
    // A minute with no follower reporting counts as bad.
    badShare: `avg_over_time(((max(chain_follower_lag_seconds{chain="${HUB_CHAIN}"}) > bool 30) or on() vector(1))[$w:1m])`,
    runbook: 'fill-visible',
  },
  {
    name: 'keyset-age',
    title: 'Key-set age: every swap-gateway replica holds a key set confirmed within 60 s (four refresh periods)',
    objective: 0.999,
    badShare: `avg_over_time((max(keyset_age_seconds{registry="portal"}) > bool 60)[$w:1m])`,
    runbook: 'keyset-age',
  },
];

/** Multi-window burn rates: docs/operators/monitoring.md#alerts. */
const BURNS = [
  { long: '1h', short: '5m', factor: 14.4, severity: 'page', for: '2m' },
  { long: '6h', short: '30m', factor: 6, severity: 'page', for: '15m' },
  { long: '3d', short: '6h', factor: 1, severity: 'ticket', for: '1h' },
] as const;

const camel = (name: string) => name.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());
const runbook = (page: string) => `${RUNBOOK_BASE}/${page}.md`;
const windows = [...new Set(BURNS.flatMap((b) => [b.long, b.short]))];

function sloGroup(slo: Slo): RuleGroup {
  const record = (w: string) => `slo:${slo.name.replaceAll('-', '_')}:bad_share:rate${w}`;
  const budget = +(1 - slo.objective).toFixed(6);
  return {
    name: `slo-${slo.name}`,
    rules: [
      ...windows.map((w) => ({ record: record(w), expr: slo.badShare.replaceAll('$w', w) })),
      ...BURNS.map((b): AlertRule => ({
        alert: `${camel(slo.name)}BudgetBurn`,
        expr: `${record(b.long)} > (${b.factor} * ${budget}) and ${record(b.short)} > (${b.factor} * ${budget})`,
        for: b.for,
        labels: { severity: b.severity, slo: slo.name, window: b.long },
        annotations: {
          summary: `${slo.title}: error budget burning ${b.factor}x (${b.long} and ${b.short} windows)`,
          description: `At this rate the ${SLO_WINDOW_DAYS}-day budget of ${(budget * 100).toFixed(2)}% is gone in ${Math.round((SLO_WINDOW_DAYS * 24) / b.factor)} h.`,
          runbook_url: runbook(slo.runbook),
        },
      })),
    ],
  };
}

const CAUSES: AlertRule[] = [
  {
    alert: 'ReplicaNotReady',
    expr: 'service_ready == 0',
    for: '5m',
    labels: { severity: 'page' },
    annotations: {
      summary: '{{ $labels.service }} replica {{ $labels.pod }} has answered /readyz not ready for 5 minutes',
      description:
        'A required dependency (PostgreSQL, NATS) is unreachable from it, or it is recovering; it takes no traffic and no bus work.',
      runbook_url: runbook('replica-not-ready'),
    },
  },
  {
    alert: 'SettlementBacklogGrowing',
    expr: 'max(settlement_work_pending) > 100 and deriv(max(settlement_work_pending)[15m:1m]) > 0',
    for: '15m',
    labels: { severity: 'page' },
    annotations: {
      summary: 'Settlement work waiting: {{ $value }} items and growing for 15 minutes',
      description: "relay-tracker's JetStream consumer falls behind: too few replicas, a slow chain, or failing steps.",
      runbook_url: runbook('settlement-backlog'),
    },
  },
  {
    alert: 'SwapStuckPending',
    expr: 'max(settlement_oldest_swap_seconds{status="pending"}) > 900',
    for: '5m',
    labels: { severity: 'page' },
    annotations: {
      summary: 'A swap submitted {{ $value | humanizeDuration }} ago has not left pending',
      description:
        'Past the not-found window (10 min) a pending swap is either moved on or failed: settlement is not stepping it (no replica taking work, its item lost, its source chain unread).',
      runbook_url: runbook('swap-stuck-pending'),
    },
  },
  {
    alert: 'ChainRpcFailing',
    expr: 'sum by (chain) (rate(chain_rpc_errors_total[5m])) / sum by (chain) (rate(chain_rpc_requests_total[5m])) > 0.25 and sum by (chain) (rate(chain_rpc_requests_total[5m])) > 0',
    for: '10m',
    labels: { severity: 'page' },
    annotations: {
      summary: 'More than a quarter of the reads of {{ $labels.chain }} fail',
      description: "The chain's RPC endpoint is unreachable, timing out or refusing; swaps on it do not progress.",
      runbook_url: runbook('chain-rpc-failing'),
    },
  },
  {
    alert: 'NoSolverConnected',
    expr: 'sum(solver_connections) == 0 or absent(solver_connections)',
    for: '5m',
    labels: { severity: 'page' },
    annotations: {
      summary: 'No solver is connected to any quote-builder replica',
      description: 'Every request for quote ends with no-solvers: no swap can be quoted.',
      runbook_url: runbook('no-solver-connected'),
    },
  },
  {
    alert: 'KeySetStale',
    expr: 'keyset_age_seconds{registry="portal"} > 30',
    for: '2m',
    labels: { severity: 'ticket' },
    annotations: {
      summary: '{{ $labels.service }} replica {{ $labels.pod }} holds a key set not confirmed for {{ $value | humanizeDuration }}',
      description:
        'Older than two refresh periods (KEYSET_REFRESH_MS, 15 s): key-registry unreachable or its sets refused; revocations do not reach this replica.',
      runbook_url: runbook('keyset-stale'),
    },
  },
];

export function ruleGroups(): RuleGroup[] {
  return [...SLOS.map(sloGroup), { name: 'causes', rules: CAUSES }];
}

export const isAlert = (rule: AlertRule | RecordingRule): rule is AlertRule => 'alert' in rule;
