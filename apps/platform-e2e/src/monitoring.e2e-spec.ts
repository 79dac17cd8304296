import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPlatform, type Platform } from '../../../tools/embedded/src/platform';
import { isAlert, ruleGroups } from '../../../tools/monitoring/src/alert-rules';
import { dashboardQueries, DASHBOARDS } from '../../../tools/monitoring/src/dashboards';
import { promql, servedNames } from '../../../tools/monitoring/src/promql';

jest.setTimeout(120_000);

/** Every metric an alert, recording rule or dashboard panel reads is one a service of a running platform serves on /metrics. */
describe('the alert rules and dashboards against the metrics the services serve', () => {
  let platform: Platform;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'monitoring-'));
    platform = await startPlatform({ dataDir, gatewayPort: 0, servicePorts: 'ephemeral', logLevel: 'warn' });
  });
  afterAll(async () => {
    await platform?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('finds every metric the rules name on some service’s /metrics', async () => {
    const served = new Set<string>();
    for (const service of platform.services) {
      // What the probes keep up to date (service_ready), once.
      await fetch(`${service.adminUrl}/readyz`);
      for (const name of servedNames(await (await fetch(`${service.adminUrl}/metrics`)).text())) served.add(name);
    }
    const rules = ruleGroups().flatMap((g) => g.rules);
    const recorded = new Set(rules.flatMap((r) => ('record' in r ? [r.record] : [])));
    const expressions = [...rules.map((r) => r.expr), ...Object.values(DASHBOARDS).flatMap((build) => dashboardQueries(build()))];
    const named = [...new Set(expressions.flatMap((e) => promql(e).metrics))].filter((m) => !recorded.has(m));
    expect(named.filter((m) => !served.has(m))).toEqual([]);
    expect(named).toEqual(expect.arrayContaining(['http_requests_total', 'keyset_age_seconds', 'service_ready', 'solver_connections']));
    expect(rules.filter(isAlert).length).toBeGreaterThan(10);
  });
});
