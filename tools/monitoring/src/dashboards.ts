import { LegendDisplayMode, LegendPlacement, VizLegendOptionsBuilder } from '@grafana/grafana-foundation-sdk/common';
import { DashboardBuilder, DatasourceVariableBuilder, RowBuilder, type Dashboard } from '@grafana/grafana-foundation-sdk/dashboard';
import { DataqueryBuilder } from '@grafana/grafana-foundation-sdk/prometheus';
import { PanelBuilder as StatPanel } from '@grafana/grafana-foundation-sdk/stat';
import { PanelBuilder as TimeSeries } from '@grafana/grafana-foundation-sdk/timeseries';

/** Grafana dashboards built with Grafana's foundation SDK: a metric renamed breaks a test, not a panel. */

const DATASOURCE = { type: 'prometheus', uid: '${datasource}' };

interface Query {
  expr: string;
  legend: string;
}

const q = (expr: string, legend: string): Query => ({ expr, legend });

function series(title: string, unit: string, queries: Query[], description?: string): TimeSeries {
  const legend = new VizLegendOptionsBuilder().showLegend(true).displayMode(LegendDisplayMode.List).placement(LegendPlacement.Bottom);
  const panel = new TimeSeries().title(title).unit(unit).datasource(DATASOURCE).height(8).span(12).legend(legend);
  if (description) panel.description(description);
  for (const [i, query] of queries.entries())
    panel.withTarget(
      new DataqueryBuilder()
        .expr(query.expr)
        .legendFormat(query.legend)
        .refId(String.fromCharCode(65 + i)),
    );
  return panel;
}

function stat(title: string, unit: string, query: Query): StatPanel {
  return new StatPanel()
    .title(title)
    .unit(unit)
    .datasource(DATASOURCE)
    .height(4)
    .span(6)
    .withTarget(new DataqueryBuilder().expr(query.expr).legendFormat(query.legend).refId('A'));
}

function dashboard(uid: string, title: string): DashboardBuilder {
  return new DashboardBuilder(title)
    .uid(uid)
    .tags(['swap-platform'])
    .refresh('30s')
    .time({ from: 'now-6h', to: 'now' })
    .withVariable(new DatasourceVariableBuilder('datasource').label('Prometheus').type('prometheus'));
}

const p99 = (metric: string, by: string, filter = '') =>
  `histogram_quantile(0.99, sum by (le, ${by}) (rate(${metric}_bucket${filter}[5m])))`;

function overview(): Dashboard {
  return dashboard('swap-platform-overview', 'Swap platform: overview')
    .withRow(new RowBuilder('Every service'))
    .withPanel(stat('API availability (5xx-free share, 1 h)', 'percentunit', q('1 - slo:api_availability:bad_share:rate1h', 'now')))
    .withPanel(stat('Replicas not ready', 'none', q('count(service_ready == 0) or vector(0)', 'not ready')))
    .withPanel(series('Requests by service', 'reqps', [q('sum by (service) (rate(http_requests_total[5m]))', '{{service}}')]))
    .withPanel(
      series('Error share by service (5xx)', 'percentunit', [
        q(
          'sum by (service) (rate(http_requests_total{status_code=~"5.."}[5m])) / sum by (service) (rate(http_requests_total[5m]))',
          '{{service}}',
        ),
      ]),
    )
    .withPanel(series('p99 latency by route', 's', [q(p99('http_request_duration_seconds', 'service, route'), '{{service}} {{route}}')]))
    .withPanel(series('Ready replicas', 'none', [q('sum by (service) (service_ready)', '{{service}}')]))
    .build();
}

function settlement(): Dashboard {
  return dashboard('swap-platform-settlement', 'Swap platform: settlement')
    .withRow(new RowBuilder('Swaps and steps'))
    .withPanel(
      series(
        'Swaps by status',
        'none',
        [q('max by (status) (settlement_swaps)', '{{status}}')],
        'Counted in the database: the same on every replica',
      ),
    )
    .withPanel(series('Step duration p90 by step', 's', [q(p99('settlement_step_seconds', 'step').replace('0.99', '0.9'), '{{step}}')]))
    .withPanel(
      series(
        'Fills per solver',
        'none',
        [q('sum by (solver) (increase(solver_fills_total[15m]))', '{{solver}}')],
        'Fills in 15 min, each confirmed by the hub',
      ),
    )
    .withRow(new RowBuilder('Queues'))
    .withPanel(
      series('JetStream pending', 'none', [
        q('max(settlement_work_pending)', 'settlement work'),
        q('max(settlement_events_pending)', 'chain events'),
      ]),
    )
    .withPanel(
      series('Redeliveries', 'none', [
        q('max(settlement_work_redelivered)', 'settlement work'),
        q('max(settlement_events_redelivered)', 'chain events'),
      ]),
    )
    .withRow(new RowBuilder('Chains'))
    .withPanel(series('Follower lag by chain', 's', [q('max by (chain) (chain_follower_lag_seconds)', '{{chain}}')]))
    .withPanel(
      series('RPC errors by chain', 'percentunit', [
        q('sum by (chain) (rate(chain_rpc_errors_total[5m])) / sum by (chain) (rate(chain_rpc_requests_total[5m]))', '{{chain}}'),
      ]),
    )
    .build();
}

function marketplace(): Dashboard {
  return dashboard('swap-platform-marketplace', 'Swap platform: marketplace')
    .withPanel(stat('Solvers connected', 'none', q('sum(solver_connections)', 'connections')))
    .withPanel(
      series('Requests for quote by outcome', 'reqps', [q('sum by (outcome) (rate(rfq_duration_seconds_count[5m]))', '{{outcome}}')]),
    )
    .withPanel(series('Request for quote p99', 's', [q(p99('rfq_duration_seconds', 'outcome'), '{{outcome}}')]))
    .withPanel(
      series('Answers by solver and outcome', 'reqps', [
        q('sum by (solver, outcome) (rate(solver_rfq_answers_total[5m]))', '{{solver}} {{outcome}}'),
      ]),
    )
    .withPanel(
      series(
        'Quote share per solver',
        'percentunit',
        [
          q(
            'sum by (solver) (rate(solver_rfq_answers_total{outcome="quote"}[15m])) / scalar(sum(rate(solver_rfq_answers_total{outcome="quote"}[15m])))',
            '{{solver}}',
          ),
        ],
        'Each solver’s share of the quotes given',
      ),
    )
    .withPanel(
      series(
        'Win share per solver',
        'percentunit',
        [q('sum by (solver) (rate(solver_quotes_won_total[15m])) / scalar(sum(rate(solver_quotes_won_total[15m])))', '{{solver}}')],
        'Each solver’s share of the quotes it won (the best answer)',
      ),
    )
    .withPanel(series('Quote stages p99', 's', [q(p99('quote_stage_seconds', 'stage'), '{{stage}}')]))
    .build();
}

function keys(): Dashboard {
  return dashboard('swap-platform-keys', 'Swap platform: API keys')
    .withPanel(
      series('Key checks by outcome and mode', 'reqps', [
        q('sum by (outcome, mode) (rate(api_key_checks_total[5m]))', '{{mode}} {{outcome}}'),
      ]),
    )
    .withPanel(series('Key-set age per replica', 's', [q('keyset_age_seconds{registry="portal"}', '{{pod}}')], 'Alert above 30 s'))
    .withPanel(
      series(
        'Key-set version per replica',
        'none',
        [q('api_key_set_version{registry="portal"}', '{{pod}}')],
        'Replicas apart for long: a change not applied',
      ),
    )
    .withPanel(
      series(
        'Change propagation p99 by kind',
        's',
        [q(p99('keyset_change_propagation_seconds', 'kind'), '{{kind}}')],
        'From a change being signed to a replica applying it: a revoked key works until then',
      ),
    )
    .withPanel(
      series('Key sets refused by reason', 'none', [q('sum by (reason) (increase(api_key_set_refused_total[15m]))', '{{reason}}')]),
    )
    .withPanel(
      series('Usage counting', 'none', [
        q('sum(usage_rows_pending)', 'rows held'),
        q('sum(increase(usage_flush_failures_total[15m]))', 'batches not taken'),
        q('sum(increase(usage_requests_dropped_total[15m]))', 'requests dropped'),
      ]),
    )
    .build();
}

export const DASHBOARDS: Record<string, () => Dashboard> = { overview, settlement, marketplace, keys };

/** Every PromQL expression of a dashboard's panels. */
export function dashboardQueries(board: Dashboard): string[] {
  return (board.panels ?? []).flatMap((panel) =>
    'targets' in panel ? ((panel.targets ?? []) as { expr?: string }[]).flatMap((t) => (t.expr ? [t.expr] : [])) : [],
  );
}
