import { Inject, Injectable } from '@nestjs/common';
import {
  IDENTIFIED_OUTCOMES,
  READINESS_THRESHOLD,
  READINESS_WINDOW_DAYS,
  USAGE_BATCH_IDS_KEPT_MS,
  USAGE_INTERVAL_MS,
  USAGE_MINUTES_KEPT_MS,
  USAGE_RETENTION_DAYS,
  UsageOutcomes,
  type DeploymentReadiness,
  type OrgRouteReadiness,
  type UsageBatch,
  type UsageCounts,
  type UsageInterval,
  type UsageOutcome,
  type UsageReport,
} from '@swap/contracts';
import { inTransaction } from '@swap/persistence';
import { DATABASE_POOL } from '@swap/service-kit';
import type pg from 'pg';

export const DAY_MS = 86_400_000;
const COLUMNS = 'org_id, key_id, route, outcome';
const COUNTS = 'requests, client_errors, server_errors';
const ADD_COUNTS = `requests = t.requests + excluded.requests, client_errors = t.client_errors + excluded.client_errors,
  server_errors = t.server_errors + excluded.server_errors`;
/** Minute rows older than this (whole UTC hours) belong in usage_hours. Every truncation names UTC: the session's zone must not move a bucket. */
const CUTOFF = `date_trunc('hour', now() - interval '${USAGE_MINUTES_KEPT_MS / 3_600_000} hours', 'UTC')`;
/** One replica rolls up at a time; the others skip that round. */
const ROLLUP_LOCK = 0x75736167; // 'usag'
const IDENTIFIED = `outcome IN (${IDENTIFIED_OUTCOMES.map((o) => `'${o}'`).join(', ')})`;

interface Bucketed {
  at: Date;
  route: string;
  outcome: UsageOutcome;
  requests: number;
  client_errors: number;
  server_errors: number;
}

type Where = (time: 'minute' | 'hour') => string;

const minutesOf = (where: Where) => `SELECT minute AS t, ${COLUMNS}, ${COUNTS} FROM key_registry.usage_minutes WHERE ${where('minute')}`;

/** Both tables as one, `t` the minute or hour. */
const unionOf = (where: Where) =>
  `(${minutesOf(where)} UNION ALL SELECT hour AS t, ${COLUMNS}, ${COUNTS} FROM key_registry.usage_hours WHERE ${where('hour')}) u`;

/** Usage of keyed routes (docs/architecture/usage.md): batches in, series and readiness out, roll-ups and retention. */
@Injectable()
export class UsageStore {
  constructor(@Inject(DATABASE_POOL) private readonly pool: pg.Pool) {}

  /** In one transaction with its batch id: a batch sent again after a lost reply counts once. */
  async record(batch: UsageBatch): Promise<{ rows: number; duplicate: boolean }> {
    return inTransaction(this.pool, async (tx) => {
      const fresh = await tx.query('INSERT INTO key_registry.usage_batches (id) VALUES ($1) ON CONFLICT DO NOTHING', [batch.batchId]);
      if (fresh.rowCount === 0) return { rows: 0, duplicate: true };
      const r = batch.rows;
      const params = [
        r.map((x) => x.minute),
        r.map((x) => x.orgId),
        r.map((x) => x.keyId),
        r.map((x) => x.route),
        r.map((x) => x.outcome),
        r.map((x) => x.requests),
        r.map((x) => x.clientErrors),
        r.map((x) => x.serverErrors),
      ];
      const rows = `unnest($1::timestamptz[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::int[])
        AS r(m, ${COLUMNS}, ${COUNTS})`;
      const sums = `sum(requests), sum(client_errors), sum(server_errors)`;
      // Ordered, so that replicas' batches touching the same rows lock them in one order (no deadlock).
      await tx.query(
        `INSERT INTO key_registry.usage_minutes AS t (minute, ${COLUMNS}, ${COUNTS})
         SELECT date_trunc('minute', m, 'UTC'), ${COLUMNS}, ${sums} FROM ${rows} WHERE m >= ${CUTOFF} GROUP BY 1, 2, 3, 4, 5
         ORDER BY 1, 2, 3, 4, 5
         ON CONFLICT (minute, ${COLUMNS}) DO UPDATE SET ${ADD_COUNTS}`,
        params,
      );
      await tx.query(
        `INSERT INTO key_registry.usage_hours AS t (hour, ${COLUMNS}, ${COUNTS})
         SELECT date_trunc('hour', m, 'UTC'), ${COLUMNS}, ${sums} FROM ${rows} WHERE m < ${CUTOFF} GROUP BY 1, 2, 3, 4, 5
         ORDER BY 1, 2, 3, 4, 5
         ON CONFLICT (hour, ${COLUMNS}) DO UPDATE SET ${ADD_COUNTS}`,
        params,
      );
      return { rows: r.length, duplicate: false };
    });
  }

  /** docs/architecture/usage.md#stored-rolled-up-kept. */
  async rollUp(): Promise<{ moved: number; expired: number }> {
    return inTransaction(this.pool, async (tx) => {
      const [{ locked }] = (await tx.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [ROLLUP_LOCK])).rows;
      if (!locked) return { moved: 0, expired: 0 };
      const { rows } = await tx.query<{ moved: number }>(
        `WITH moved AS (DELETE FROM key_registry.usage_minutes WHERE minute < ${CUTOFF} RETURNING *),
         hours AS (INSERT INTO key_registry.usage_hours AS t (hour, ${COLUMNS}, ${COUNTS})
           SELECT date_trunc('hour', minute, 'UTC'), ${COLUMNS}, sum(requests), sum(client_errors), sum(server_errors) FROM moved
           GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
           ON CONFLICT (hour, ${COLUMNS}) DO UPDATE SET ${ADD_COUNTS})
         SELECT count(*)::int AS moved FROM moved`,
      );
      const expired = await tx.query(`DELETE FROM key_registry.usage_hours WHERE hour < now() - interval '${USAGE_RETENTION_DAYS} days'`);
      await tx.query(`DELETE FROM key_registry.usage_batches WHERE at < now() - interval '${USAGE_BATCH_IDS_KEPT_MS / 3_600_000} hours'`);
      return { moved: rows[0].moved, expired: expired.rowCount ?? 0 };
    });
  }

  /** `from` and `to` whole intervals (UTC); minute series read only the minutes kept. */
  async report(q: { orgId: string; from: string; to: string; interval: UsageInterval; keyId?: string }): Promise<UsageReport> {
    const params: unknown[] = [q.orgId, q.from, q.to];
    const key = q.keyId ? ` AND key_id = $${params.push(q.keyId)}` : '';
    const where: Where = (t) => `org_id = $1 AND ${t} >= $2::timestamptz AND ${t} < $3::timestamptz${key}`;
    const source = q.interval === 'minute' ? `(${minutesOf(where)}) u` : unionOf(where);
    const { rows } = await this.pool.query<Bucketed>(
      `SELECT date_trunc('${q.interval}', t, 'UTC') AS at, route, outcome,
         sum(requests)::int AS requests, sum(client_errors)::int AS client_errors, sum(server_errors)::int AS server_errors
       FROM ${source} GROUP BY 1, 2, 3 ORDER BY 1`,
      params,
    );
    const step = USAGE_INTERVAL_MS[q.interval];
    const start = Date.parse(q.from);
    const series = Array.from({ length: Math.ceil((Date.parse(q.to) - start) / step) }, (_, i) => ({
      at: new Date(start + i * step).toISOString(),
      ...zero(),
    }));
    const routes = new Map<string, UsageCounts & { route: string }>();
    const totals = zero();
    for (const row of rows) {
      const point = series[Math.floor((row.at.getTime() - start) / step)];
      let route = routes.get(row.route);
      if (!route) routes.set(row.route, (route = { route: row.route, ...zero() }));
      for (const counts of [point, route, totals]) if (counts) add(counts, row);
    }
    const errorShare = totals.requests ? (totals.clientErrors + totals.serverErrors) / totals.requests : 0;
    return {
      from: q.from,
      to: q.to,
      interval: q.interval,
      ...(q.keyId ? { keyId: q.keyId } : {}),
      totals: { ...totals, errorShare },
      routes: [...routes.values()].sort((a, b) => b.requests - a.requests || a.route.localeCompare(b.route)),
      series,
    };
  }

  async orgReadiness(orgId: string, now = Date.now()): Promise<{ from: string; to: string; routes: OrgRouteReadiness[] }> {
    const window = readinessWindow(now);
    const perOrg = await this.identified(window.from, orgId);
    return { ...window, routes: perOrg.get(orgId) ?? [] };
  }

  /** Both sides of enforcement readiness, for `npm run ops -- modes readiness`. */
  async deploymentReadiness(now = Date.now()): Promise<DeploymentReadiness> {
    const window = readinessWindow(now);
    const { rows } = await this.pool.query<{ route: string; requests: number; unidentified: number }>(
      `SELECT route, sum(requests)::int AS requests, (sum(requests) FILTER (WHERE outcome IN ('missing', 'invalid')))::int AS unidentified
       FROM ${unionOf((t) => `${t} >= $1::timestamptz`)} GROUP BY route ORDER BY route`,
      [window.from],
    );
    const perOrg = await this.identified(window.from);
    return {
      ...window,
      threshold: READINESS_THRESHOLD,
      routes: rows.map((r) => ({ ...r, unidentified: r.unidentified ?? 0, unidentifiedShare: (r.unidentified ?? 0) / r.requests })),
      organisations: [...perOrg].map(([orgId, routes]) => ({ orgId, routes })),
    };
  }

  /** Per organisation and route: identified requests in the window, how many valid, and the first one ever kept. */
  private async identified(from: string, orgId?: string): Promise<Map<string, OrgRouteReadiness[]>> {
    const { rows } = await this.pool.query<{ org_id: string; route: string; first_seen: Date; identified: number; valid: number }>(
      `SELECT org_id, route, min(t) AS first_seen, (sum(requests) FILTER (WHERE t >= $1::timestamptz))::int AS identified,
         (sum(requests) FILTER (WHERE t >= $1::timestamptz AND outcome = 'valid'))::int AS valid
       FROM ${unionOf(() => `${orgId ? 'org_id = $2' : "org_id <> ''"} AND ${IDENTIFIED}`)}
       GROUP BY org_id, route HAVING sum(requests) FILTER (WHERE t >= $1::timestamptz) > 0 ORDER BY org_id, route`,
      orgId ? [from, orgId] : [from],
    );
    const perOrg = new Map<string, OrgRouteReadiness[]>();
    for (const r of rows) {
      const valid = r.valid ?? 0;
      const share = valid / r.identified;
      const status = share < READINESS_THRESHOLD ? 'not-ready' : r.first_seen.toISOString() <= from ? 'ready' : 'too-early';
      const list = perOrg.get(r.org_id) ?? [];
      list.push({ route: r.route, identified: r.identified, valid, share, firstSeen: r.first_seen.toISOString(), status });
      perOrg.set(r.org_id, list);
    }
    return perOrg;
  }
}

function readinessWindow(now: number): { from: string; to: string } {
  return { from: new Date(now - READINESS_WINDOW_DAYS * DAY_MS).toISOString(), to: new Date(now).toISOString() };
}

function zero(): UsageCounts {
  return {
    requests: 0,
    clientErrors: 0,
    serverErrors: 0,
    outcomes: Object.fromEntries(UsageOutcomes.map((o) => [o, 0])) as Record<UsageOutcome, number>,
  };
}

function add(counts: UsageCounts, row: Bucketed): void {
  counts.requests += row.requests;
  counts.clientErrors += row.client_errors;
  counts.serverErrors += row.server_errors;
  counts.outcomes[row.outcome] = (counts.outcomes[row.outcome] ?? 0) + row.requests;
}
