import { Subjects } from '@swap/contracts';
import { portalHarnessPerSuite } from '../testing/portal-harness';

const HOUR = 3_600_000;

describe("the organisation's usage through the portal: members only, ranges checked before key-registry is asked", () => {
  const h = portalHarnessPerSuite();
  const asked = () => h().registry.requestsOn(Subjects.usageReport).concat(h().registry.requestsOn(Subjects.usageReadiness));

  it('any member reads the series; the range is taken to whole intervals, the last day by hours unless told', async () => {
    const t = await h().team();
    h().registry.received.splice(0);

    const res = await t.member.call('GET', `/portal/api/orgs/${t.orgId}/usage`);
    expect(res.status).toBe(200);
    const [asked1] = h().registry.requestsOn(Subjects.usageReport) as { from: string; to: string; interval: string }[];
    expect(asked1).toEqual({ orgId: t.orgId, from: expect.any(String), to: expect.any(String), interval: 'hour' });
    expect(Date.parse(asked1.to) - Date.parse(asked1.from)).toBe(24 * HOUR);
    expect(Date.parse(asked1.to) % HOUR).toBe(0);

    const key = '0b6c2f0e-5a8e-4f57-9f1e-2f7c1f3d6a10';
    // Ids in capitals are the same ids: asked for in lower case, as they are stored.
    const q = `from=2026-11-20T10:17:00Z&to=2026-11-21T00:00:01Z&interval=day&keyId=${key.toUpperCase()}`;
    expect((await t.member.call('GET', `/portal/api/orgs/${t.orgId.toUpperCase()}/usage?${q}`)).body).toMatchObject({
      from: '2026-11-20T00:00:00.000Z',
      to: '2026-11-22T00:00:00.000Z',
      interval: 'day',
    });
    expect(h().registry.requestsOn(Subjects.usageReport)[1]).toEqual({
      orgId: t.orgId,
      from: '2026-11-20T00:00:00.000Z',
      to: '2026-11-22T00:00:00.000Z',
      interval: 'day',
      keyId: key,
    });
    expect(await t.member.call('GET', `/portal/api/orgs/${t.orgId}/usage/readiness`)).toMatchObject({
      status: 200,
      body: { threshold: 0.999, routes: [] },
    });
    expect(h().registry.requestsOn(Subjects.usageReadiness)).toEqual([{ orgId: t.orgId }]);
  });

  it('someone outside the organisation gets 404 on both routes, and key-registry is not asked', async () => {
    const t = await h().team();
    const stranger = await h().person('usage-stranger');
    h().registry.received.splice(0);

    for (const path of [`/portal/api/orgs/${t.orgId}/usage`, `/portal/api/orgs/${t.orgId}/usage/readiness`])
      expect(await stranger.call('GET', path)).toMatchObject({ status: 404, body: { message: 'Organisation not found' } });
    expect(asked()).toEqual([]);
  });

  const old = new Date(Date.now() - 3 * 24 * HOUR).toISOString();
  const dayAgo = new Date(Date.now() - 25 * HOUR).toISOString();
  it.each([
    ['interval=week', 'interval', 'interval must be one of minute, hour, day'],
    ['from=yesterday', 'from', 'from must be an ISO 8601 time'],
    ['to=2026-13-01T00:00:00Z', 'to', 'to must be an ISO 8601 time'],
    ['keyId=abc', 'keyId', 'keyId must be a UUID'],
    ['from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z', 'to', 'to must be after from'],
    [`interval=minute&from=${dayAgo}`, 'from', 'at most 1440 minutes apart with interval=minute'],
    [`interval=minute&from=${old}`, 'from', 'interval=minute reads the last 2 days only'],
    ['interval=hour&from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z', 'from', 'at most 744 hours apart'],
    ['interval=day&from=2025-01-01T00:00:00Z&to=2026-01-01T00:00:00Z', 'from', 'at most 90 days apart'],
  ])('refuses ?%s with 400 naming %s', async (query, field, message) => {
    const t = await h().team();
    h().registry.received.splice(0);

    const res = await t.member.call('GET', `/portal/api/orgs/${t.orgId}/usage?${query}`);

    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    expect(asked()).toEqual([]);
  });
});
