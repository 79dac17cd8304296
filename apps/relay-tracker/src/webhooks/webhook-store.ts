import type pg from 'pg';
import type { SubmissionState } from '../submissions/status-answer';

/** Secrets still sealed. */
export interface EndpointRow {
  id: string;
  orgId: string;
  url: string;
  description: string | null;
  events: string[];
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
  createdAt: Date;
  failingSince: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
}

export interface DeliveryRow {
  id: string;
  endpointId: string;
  type: string;
  submissionId: string | null;
  seq: number | null;
  createdAt: Date;
  attempts: number;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  lastLatencyMs: number | null;
  deliveredAt: Date | null;
  gaveUpAt: Date | null;
  waitsForEarlier?: boolean;
  event?: {
    txHash: string;
    srcChainKey: string;
    intent: unknown;
    intentHash: string | null;
    createdAt: Date;
    history: unknown;
    operation?: string;
    state: SubmissionState;
  };
}

const ENDPOINT_COLUMNS = `id::text AS id, org_id, url, description, events, secret, previous_secret, previous_secret_until, created_at,
  failing_since, disabled_at, disabled_reason`;
const DELIVERY_COLUMNS = `d.id::text AS id, d.endpoint_id::text AS endpoint_id, d.type, d.submission_id::text AS submission_id, d.seq,
  d.created_at, d.attempts, d.next_attempt_at, d.last_attempt_at, d.last_status_code, d.last_error, d.last_latency_ms, d.delivered_at, d.gave_up_at`;

function camel(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), v]));
}

/** Plain SQL: the sender's hot path. */
export class WebhookStore {
  constructor(private readonly pool: pg.Pool) {}

  async endpoints(orgId: string): Promise<EndpointRow[]> {
    const { rows } = await this.pool.query(
      `SELECT ${ENDPOINT_COLUMNS} FROM relay_tracker.webhook_endpoints WHERE org_id = $1 ORDER BY created_at`,
      [orgId],
    );
    return rows.map((r) => camel(r) as unknown as EndpointRow);
  }

  async endpoint(orgId: string, id: string): Promise<EndpointRow | undefined> {
    const { rows } = await this.pool.query(
      `SELECT ${ENDPOINT_COLUMNS} FROM relay_tracker.webhook_endpoints WHERE org_id = $1 AND id::text = $2`,
      [orgId, id],
    );
    return rows[0] ? (camel(rows[0]) as unknown as EndpointRow) : undefined;
  }

  /** One statement under a lock, so concurrent adds cannot pass `limit`. */
  async addEndpoint(
    e: { id: string; orgId: string; url: string; description?: string; events: string[]; secret: string; createdBy: string },
    limit: number,
  ): Promise<EndpointRow | undefined> {
    const { rows } = await this.pool.query(
      `WITH locked AS (SELECT pg_advisory_xact_lock(hashtext('webhook_endpoints:' || $2)))
       INSERT INTO relay_tracker.webhook_endpoints (id, org_id, url, description, events, secret, created_by)
       SELECT $1::uuid, $2, $3, $4, $5::text[], $6, $7 FROM locked
       WHERE (SELECT count(*) FROM relay_tracker.webhook_endpoints WHERE org_id = $2) < $8
       RETURNING ${ENDPOINT_COLUMNS}`,
      [e.id, e.orgId, e.url, e.description ?? null, e.events, e.secret, e.createdBy, limit],
    );
    return rows[0] ? (camel(rows[0]) as unknown as EndpointRow) : undefined;
  }

  async deleteEndpoint(orgId: string, id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(`DELETE FROM relay_tracker.webhook_endpoints WHERE org_id = $1 AND id::text = $2`, [
      orgId,
      id,
    ]);
    return rowCount === 1;
  }

  async rotate(orgId: string, id: string, sealed: string, until: Date): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE relay_tracker.webhook_endpoints SET previous_secret = secret, previous_secret_until = $4, secret = $3
       WHERE org_id = $1 AND id::text = $2`,
      [orgId, id, sealed, until],
    );
    return rowCount === 1;
  }

  async addTestDelivery(id: string, endpointId: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO relay_tracker.webhook_deliveries (id, endpoint_id, type, next_attempt_at) VALUES ($1::uuid, $2::uuid, 'webhook.test', NULL)`,
      [id, endpointId],
    );
  }

  async delivery(id: string): Promise<{ delivery: DeliveryRow; endpoint: EndpointRow } | undefined> {
    const { rows } = await this.pool.query(
      `SELECT ${DELIVERY_COLUMNS},
         EXISTS (SELECT 1 FROM relay_tracker.webhook_deliveries p WHERE p.endpoint_id = d.endpoint_id AND p.submission_id = d.submission_id
                 AND p.seq < d.seq AND p.delivered_at IS NULL AND p.gave_up_at IS NULL) AS waits_for_earlier,
         row_to_json(w) AS endpoint,
         CASE WHEN s.id IS NOT NULL THEN json_build_object('txHash', s.tx_hash, 'srcChainKey', s.src_chain_key, 'intent', s.intent,
           'intentHash', s.intent_hash, 'createdAt', s.created_at, 'history', s.history, 'operation', s.operation, 'state', e.state) END AS event
       FROM relay_tracker.webhook_deliveries d
       JOIN relay_tracker.webhook_endpoints w ON w.id = d.endpoint_id
       LEFT JOIN relay_tracker.submissions s ON s.id = d.submission_id
       LEFT JOIN relay_tracker.submission_events e ON e.submission_id = d.submission_id AND e.seq = d.seq
       WHERE d.id::text = $1`,
      [id],
    );
    const r = rows[0] as Record<string, unknown> | undefined;
    if (!r) return undefined;
    const endpoint = camel(r.endpoint as Record<string, unknown>) as unknown as EndpointRow;
    for (const k of ['createdAt', 'previousSecretUntil', 'failingSince', 'disabledAt'] as const)
      if (endpoint[k]) (endpoint as unknown as Record<string, unknown>)[k] = new Date(endpoint[k] as unknown as string);
    const { endpoint: _e, event, waits_for_earlier, ...rest } = r;
    const delivery = camel(rest) as unknown as DeliveryRow;
    delivery.waitsForEarlier = waits_for_earlier as boolean;
    if (event) {
      const ev = event as DeliveryRow['event'] & { createdAt: string };
      delivery.event = { ...ev, createdAt: new Date(ev.createdAt) };
    }
    return { delivery, endpoint };
  }

  /** `next` null: given up. */
  async recordAttempt(
    id: string,
    outcome: { ok: boolean; statusCode?: number; error?: string; latencyMs: number },
    next: Date | null,
  ): Promise<void> {
    await this.pool.query(
      `UPDATE relay_tracker.webhook_deliveries
       SET attempts = attempts + 1, last_attempt_at = now(), last_status_code = $2, last_error = $3, last_latency_ms = $4,
           delivered_at = CASE WHEN $5 THEN now() END, gave_up_at = CASE WHEN NOT $5 AND $6::timestamptz IS NULL THEN now() END,
           next_attempt_at = CASE WHEN $5 THEN NULL ELSE $6::timestamptz END
       WHERE id::text = $1`,
      [id, outcome.statusCode ?? null, outcome.ok ? null : (outcome.error ?? null), outcome.latencyMs, outcome.ok, next],
    );
  }

  async endpointAttempted(endpointId: string, ok: boolean, error: string | undefined, disableBefore: Date): Promise<void> {
    if (ok) {
      await this.pool.query(
        `UPDATE relay_tracker.webhook_endpoints SET failing_since = NULL WHERE id = $1::uuid AND failing_since IS NOT NULL`,
        [endpointId],
      );
      return;
    }
    await this.pool.query(
      `UPDATE relay_tracker.webhook_endpoints
       SET failing_since = COALESCE(failing_since, now()),
           disabled_at = CASE WHEN disabled_at IS NULL AND failing_since < $2 THEN now() ELSE disabled_at END,
           disabled_reason = CASE WHEN disabled_at IS NULL AND failing_since < $2
             THEN 'every delivery failed since ' || to_char(failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') || ' UTC; the last: ' || $3
             ELSE disabled_reason END
       WHERE id = $1::uuid`,
      [endpointId, disableBefore, error ?? 'failed'],
    );
  }

  async replay(endpointId: string, deliveryId: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE relay_tracker.webhook_deliveries SET next_attempt_at = now(), gave_up_at = NULL, delivered_at = NULL
       WHERE id::text = $2 AND endpoint_id::text = $1`,
      [endpointId, deliveryId],
    );
    return rowCount === 1;
  }

  /** Newest first (a swap's events of one moment by their place in its history); `only`: that delivery. */
  async deliveries(
    endpointId: string,
    days: number,
    limit: number,
    cursor?: { at: Date; seq: number; id: string },
    only?: string,
  ): Promise<DeliveryRow[]> {
    const { rows } = await this.pool.query(
      `SELECT ${DELIVERY_COLUMNS}, s.tx_hash, s.src_chain_key FROM relay_tracker.webhook_deliveries d
       LEFT JOIN relay_tracker.submissions s ON s.id = d.submission_id
       WHERE d.endpoint_id::text = $1 AND d.created_at > now() - make_interval(days => $2)
         AND ($3::timestamptz IS NULL OR (d.created_at, COALESCE(d.seq, 0), d.id::text) < ($3::timestamptz, $4::int, $5::text))
         AND ($7::text IS NULL OR d.id::text = $7)
       ORDER BY d.created_at DESC, COALESCE(d.seq, 0) DESC, d.id::text DESC LIMIT $6`,
      [endpointId, days, cursor?.at ?? null, cursor?.seq ?? 0, cursor?.id ?? '', limit, only ?? null],
    );
    return rows.map((r) => camel(r) as unknown as DeliveryRow);
  }

  /** Each the earliest still owed of its swap to its endpoint, claimed for `leaseMs` so a dead replica loses nothing. */
  async claimDue(leaseMs: number, limit: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `UPDATE relay_tracker.webhook_deliveries SET next_attempt_at = now() + make_interval(secs => $1::double precision / 1000)
       WHERE id IN (
         SELECT d.id FROM relay_tracker.webhook_deliveries d
         JOIN relay_tracker.webhook_endpoints w ON w.id = d.endpoint_id AND w.disabled_at IS NULL
         WHERE d.next_attempt_at <= now()
           AND NOT EXISTS (SELECT 1 FROM relay_tracker.webhook_deliveries p WHERE p.endpoint_id = d.endpoint_id
                           AND p.submission_id = d.submission_id AND p.seq < d.seq AND p.delivered_at IS NULL AND p.gave_up_at IS NULL)
         ORDER BY d.next_attempt_at LIMIT $2 FOR UPDATE OF d SKIP LOCKED)
       RETURNING id::text AS id`,
      [leaseMs, limit],
    );
    return rows.map((r) => r.id);
  }

  async prune(days: number, limit: number): Promise<number> {
    const { rowCount } = await this.pool.query(
      `DELETE FROM relay_tracker.webhook_deliveries WHERE id IN (
         SELECT id FROM relay_tracker.webhook_deliveries
         WHERE next_attempt_at IS NULL AND created_at < now() - make_interval(days => $1) LIMIT $2)`,
      [days, limit],
    );
    return rowCount ?? 0;
  }
}
