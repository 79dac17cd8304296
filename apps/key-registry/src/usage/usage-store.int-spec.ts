import { randomUUID } from 'node:crypto';
import type { UsageOutcome, UsageRow } from '@swap/contracts';
import { RegistryHarness } from '../testing/registry-harness';
import { UsageStore } from './usage-store';
import { UsageHandlers } from './usage.handlers';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const QUOTE = 'POST /v1/swaps/quote';
const SUBMIT = 'POST /v1/swaps/submit-tx';

function row(at: number, orgId: string, route: string, outcome: UsageOutcome, requests: number, errors = 0, keyId = ''): UsageRow {
  const minute = new Date(at - (at % 60_000)).toISOString();
  return { minute, orgId, keyId, route, outcome, requests, clientErrors: errors, serverErrors: 0 };
}

describe('UsageStore against PostgreSQL', () => {
  let harness: RegistryHarness;
  let store: UsageStore;

  beforeAll(async () => {
    harness = await RegistryHarness.start();
    store = new UsageStore(harness.pool);
  });
  afterAll(() => harness.stop());
  beforeEach(() => harness.sql('TRUNCATE key_registry.usage_minutes, key_registry.usage_hours, key_registry.usage_batches'));

  it('adds batches up per minute, counts a batch sent again once, and answers the organisation’s series with totals and the error share', async () => {
    const org = randomUUID();
    const other = randomUUID();
    const key = randomUUID();
    const start = Math.floor(Date.now() / HOUR) * HOUR - 2 * HOUR;
    const first = {
      batchId: randomUUID(),
      rows: [
        row(start + 60_000, org, QUOTE, 'valid', 10, 1, key),
        row(start + 61_000, org, SUBMIT, 'scope', 2, 2, key),
        row(start + 60_000, '', QUOTE, 'missing', 7),
        row(start + 60_000, other, QUOTE, 'valid', 100),
      ],
    };
    expect(await store.record(first)).toEqual({ rows: 4, duplicate: false });
    expect(await store.record(first)).toEqual({ rows: 0, duplicate: true });
    await store.record({
      batchId: randomUUID(),
      rows: [row(start + 90_000, org, QUOTE, 'valid', 5, 0, key), row(start + HOUR, org, QUOTE, 'valid', 3, 0, key)],
    });

    const minutes = await store.report({
      orgId: org,
      from: new Date(start).toISOString(),
      to: new Date(start + 2 * HOUR).toISOString(),
      interval: 'minute',
    });
    expect(minutes.series).toHaveLength(120);
    expect(minutes.series[1]).toMatchObject({ at: new Date(start + 60_000).toISOString(), requests: 17, clientErrors: 3 });
    expect(minutes.series[1].outcomes).toEqual({ valid: 15, missing: 0, invalid: 0, scope: 2, suspended: 0, unavailable: 0 });
    expect(minutes.series[60].requests).toBe(3);
    expect(minutes.totals).toMatchObject({ requests: 20, clientErrors: 3, serverErrors: 0, errorShare: 3 / 20 });
    expect(minutes.routes.map((r) => [r.route, r.requests])).toEqual([
      [QUOTE, 18],
      [SUBMIT, 2],
    ]);

    const hours = await store.report({
      orgId: org,
      from: new Date(start).toISOString(),
      to: new Date(start + 2 * HOUR).toISOString(),
      interval: 'hour',
      keyId: key,
    });
    expect(hours.series.map((p) => p.requests)).toEqual([17, 3]);
    const none = await store.report({ orgId: org, from: hours.from, to: hours.to, interval: 'hour', keyId: randomUUID() });
    expect(none.totals.requests).toBe(0);
  });

  it('rolls minutes older than two days up to hours equal to their sums, and keeps 90 days', async () => {
    const org = randomUUID();
    const now = Date.now();
    const old = Math.floor((now - 3 * DAY) / HOUR) * HOUR;
    // Written while still minutes (as a replica would have, three days ago), then moved by the roll-up.
    const minutes = [
      row(old + 60_000, org, QUOTE, 'valid', 4),
      row(old + 120_000, org, QUOTE, 'valid', 6, 1),
      row(old + 30 * 60_000, org, QUOTE, 'scope', 1, 1),
    ];
    for (const m of minutes)
      await harness.sql(
        `INSERT INTO key_registry.usage_minutes (minute, org_id, key_id, route, outcome, requests, client_errors, server_errors) VALUES ($1, $2, '', $3, $4, $5, $6, 0)`,
        [m.minute, m.orgId, m.route, m.outcome, m.requests, m.clientErrors],
      );
    await harness.sql(
      `INSERT INTO key_registry.usage_hours (hour, org_id, key_id, route, outcome, requests, client_errors, server_errors) VALUES ($1, $2, '', $3, 'valid', 9, 0, 0)`,
      [new Date(now - 91 * DAY).toISOString(), org, QUOTE],
    );
    const before = await store.report({
      orgId: org,
      from: new Date(old).toISOString(),
      to: new Date(old + HOUR).toISOString(),
      interval: 'hour',
    });

    expect(await store.rollUp()).toEqual({ moved: 3, expired: 1 });
    expect(await harness.sql('SELECT count(*)::int AS n FROM key_registry.usage_minutes')).toEqual([{ n: 0 }]);
    expect(await harness.sql('SELECT hour, outcome, requests, client_errors FROM key_registry.usage_hours ORDER BY outcome')).toEqual([
      { hour: new Date(old), outcome: 'scope', requests: 1, client_errors: 1 },
      { hour: new Date(old), outcome: 'valid', requests: 10, client_errors: 1 },
    ]);
    const after = await store.report({ orgId: org, from: before.from, to: before.to, interval: 'hour' });
    expect(after.totals).toEqual(before.totals);
    expect(after.totals.requests).toBe(11);
    expect(await store.rollUp()).toEqual({ moved: 0, expired: 0 });

    // A late batch for a minute past the cut-off goes straight to its hour.
    await store.record({ batchId: randomUUID(), rows: [row(old + 5 * 60_000, org, QUOTE, 'valid', 2)] });
    const late = await store.report({ orgId: org, from: before.from, to: before.to, interval: 'day' });
    expect(late.totals.requests).toBe(13);
  });

  it('calls a route ready at 99.9% valid for 7 days, too early with less history, not ready below; and the deployment’s unkeyed share', async () => {
    const ready = randomUUID();
    const young = randomUUID();
    const now = Date.now();
    await store.record({
      batchId: randomUUID(),
      rows: [
        row(now - 8 * DAY, ready, QUOTE, 'valid', 5),
        row(now - HOUR, ready, QUOTE, 'valid', 999),
        row(now - HOUR, ready, SUBMIT, 'valid', 998),
        row(now - HOUR, ready, SUBMIT, 'scope', 2),
        row(now - HOUR, young, QUOTE, 'valid', 50),
        row(now - HOUR, '', QUOTE, 'missing', 40),
        row(now - HOUR, '', QUOTE, 'invalid', 10),
        row(now - 9 * DAY, '', SUBMIT, 'missing', 500),
      ],
    });
    const own = await store.orgReadiness(ready, now);
    expect(own.routes.map((r) => [r.route, r.identified, r.valid, r.status])).toEqual([
      [QUOTE, 999, 999, 'ready'],
      [SUBMIT, 1000, 998, 'not-ready'],
    ]);
    expect((await store.orgReadiness(young, now)).routes).toMatchObject([{ route: QUOTE, share: 1, status: 'too-early' }]);
    expect((await store.orgReadiness(randomUUID(), now)).routes).toEqual([]);

    const deployment = await store.deploymentReadiness(now);
    expect(deployment.routes).toEqual([
      { route: QUOTE, requests: 1099, unidentified: 50, unidentifiedShare: 50 / 1099 },
      { route: SUBMIT, requests: 1000, unidentified: 0, unidentifiedShare: 0 },
    ]);
    expect(deployment.organisations.map((o) => o.orgId).sort()).toEqual([ready, young].sort());
  });

  it('keeps only rows that can be true, counting the others, and refuses a series of misaligned or too many points', async () => {
    const handlers = new UsageHandlers(store, harness.replica().registry);
    const org = randomUUID();
    const now = Date.now();
    const rows = [
      row(now, org, QUOTE, 'valid', 3, 0, randomUUID()),
      row(now, org, 'GET /v1/swaps/tokens', 'valid', 1, 0, randomUUID()), // not a keyed route
      row(now, org, QUOTE, 'missing', 1), // an organisation for a request without a key
      row(now, '', QUOTE, 'valid', 1), // a valid key of no organisation
      { ...row(now, '', QUOTE, 'invalid', 1), clientErrors: 2 }, // more errors than requests
      row(now + 10 * 60_000, org, QUOTE, 'valid', 1, 0, randomUUID()), // ahead of now
      row(now - 91 * DAY, org, QUOTE, 'valid', 1, 0, randomUUID()), // past retention
    ];
    expect(await handlers.record({ batchId: randomUUID(), rows })).toEqual({ rows: 1, duplicate: false, rejected: 6 });
    const at = Math.floor(now / HOUR) * HOUR;
    const report = await handlers.report({
      orgId: org,
      from: new Date(at).toISOString(),
      to: new Date(at + HOUR).toISOString(),
      interval: 'hour',
    });
    expect(report.totals.requests).toBe(3);
    for (const [from, to] of [
      [at + 1, at + HOUR],
      [at, at],
      [at - 2_000 * 60_000, at],
    ])
      await expect(
        handlers.report({ orgId: org, from: new Date(from).toISOString(), to: new Date(to).toISOString(), interval: 'minute' }),
      ).rejects.toMatchObject({
        details: [expect.objectContaining({ field: 'from', rule: 'range' })],
      });
  });
});
