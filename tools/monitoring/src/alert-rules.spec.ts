import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlert, ruleGroups, RUNBOOK_BASE, SLOS } from './alert-rules';
import { promql, servedNames } from './promql';
import { dashboardQueries, DASHBOARDS } from './dashboards';
import { GENERATED } from './rules-file';

const ROOT = join(__dirname, '..', '..', '..');
const rules = ruleGroups().flatMap((g) => g.rules);

describe('the alert rules', () => {
  it.each(Object.entries(GENERATED))('are in %s as generated (npm run monitoring:generate)', (file, render) => {
    expect(readFileSync(join(ROOT, file), 'utf8')).toBe(render());
  });

  it('parse with Prometheus’ PromQL grammar, every one', () => {
    const problems = rules.flatMap((r) => promql(r.expr).errors.map((e) => `${'alert' in r ? r.alert : r.record}: ${e}`));
    expect(problems).toEqual([]);
    expect(promql('sum(rate(x[5m]) > ').errors).not.toEqual([]);
  });

  it('name the metrics they select, and nothing else', () => {
    expect(promql('sum(rate(http_requests_total{service="a"}[5m])) / on() max(up) > bool 1').metrics).toEqual([
      'http_requests_total',
      'up',
    ]);
    expect(servedNames('# HELP a x\n# TYPE a_seconds histogram\n# TYPE b_total counter\n')).toEqual(
      new Set(['a_seconds', 'a_seconds_bucket', 'a_seconds_sum', 'a_seconds_count', 'b_total']),
    );
  });

  it('give each alert a severity, a summary and a runbook page that exists under docs/operators/alerts', () => {
    const alerts = rules.filter(isAlert);
    expect(alerts.length).toBe(SLOS.length * 3 + 6);
    for (const alert of alerts) {
      expect(['page', 'ticket']).toContain(alert.labels.severity);
      const page = alert.annotations.runbook_url.replace(`${RUNBOOK_BASE}/`, '');
      expect({ alert: alert.alert, exists: existsSync(join(ROOT, 'docs', 'operators', 'alerts', page)) }).toEqual({
        alert: alert.alert,
        exists: true,
      });
    }
  });

  it('differ in their labels, so Alertmanager can route and silence each (a burn alert by its long window)', () => {
    const alerts = rules.filter(isAlert);
    const labelSets = alerts.map((a) => JSON.stringify([a.alert, a.labels]));
    expect(new Set(labelSets).size).toBe(alerts.length);
    expect(alerts.filter((a) => a.alert.endsWith('BudgetBurn')).map((a) => a.labels.window)).toEqual(
      SLOS.flatMap(() => ['1h', '6h', '3d']),
    );
  });

  it('read only recorded series their own groups record', () => {
    const recorded = new Set(rules.flatMap((r) => ('record' in r ? [r.record] : [])));
    const used = rules.filter(isAlert).flatMap((a) => promql(a.expr).metrics.filter((m) => m.startsWith('slo:')));
    expect(used.filter((m) => !recorded.has(m))).toEqual([]);
  });
});

describe('the dashboards', () => {
  it.each(Object.entries(DASHBOARDS))('%s: every panel’s query parses, on the datasource variable', (_name, build) => {
    const board = build();
    const queries = dashboardQueries(board);
    expect(queries.length).toBeGreaterThan(3);
    expect(queries.flatMap((e) => promql(e).errors)).toEqual([]);
    expect(board.templating?.list?.map((v) => v.name)).toEqual(['datasource']);
    expect(board.uid).toMatch(/^swap-platform-/);
  });
});
