import { parseMetrics } from './prometheus-text';

describe('parseMetrics', () => {
  it('reads names, labels and values, skipping comments', () => {
    const text = [
      '# HELP api_key_checks_total checks',
      '# TYPE api_key_checks_total counter',
      'api_key_checks_total{route="/v1/swaps/submit-tx",family="swaps",mode="monitor",outcome="missing",org="",service="swap-gateway"} 3',
      'process_cpu_seconds_total 1.5',
    ].join('\n');
    expect(parseMetrics(text)).toEqual([
      {
        name: 'api_key_checks_total',
        labels: { route: '/v1/swaps/submit-tx', family: 'swaps', mode: 'monitor', outcome: 'missing', org: '', service: 'swap-gateway' },
        value: 3,
      },
      { name: 'process_cpu_seconds_total', labels: {}, value: 1.5 },
    ]);
  });
});
