import { Writable } from 'node:stream';
import { createLogger } from './logger';
import { ServiceMetrics } from './metrics';
import { probeDependencies } from './readiness';
import { RequestContext, resolveRequestId } from './request-context';

function sink() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _e, cb) {
      lines.push(JSON.parse(String(chunk)));
      cb();
    },
  });
  return { lines, stream };
}

describe('resolveRequestId', () => {
  it('keeps a sane caller id and replaces a hostile one', () => {
    expect(resolveRequestId('abc-123')).toBe('abc-123');
    expect(resolveRequestId('bad\nid')).toMatch(/^[0-9a-f-]{36}$/);
    expect(resolveRequestId(undefined)).toMatch(/^[0-9a-f-]{36}$/);
    expect(resolveRequestId('x'.repeat(200))).toHaveLength(36);
  });

  it('never keeps a platform credential sent as the request id (it would reach every log line)', () => {
    for (const credential of [
      'svc_Qm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWpr',
      'spk_abcdefgh12',
      'trace.slv_0123456789',
      'a-svc_abcdefghij',
    ]) {
      expect(resolveRequestId(credential)).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(resolveRequestId('svc_short')).toBe('svc_short');
  });
});

describe('createLogger', () => {
  it('writes JSON lines with the service, and the request id inside a request context', () => {
    const { lines, stream } = sink();
    const logger = createLogger({ service: 'svc', destination: stream });
    logger.info('outside');
    RequestContext.run({ requestId: 'req-1', orgId: 'org-9' }, () => logger.info('inside'));
    expect(lines[0]).toMatchObject({ level: 'info', service: 'svc', msg: 'outside' });
    expect(lines[0].requestId).toBeUndefined();
    expect(lines[1]).toMatchObject({ service: 'svc', requestId: 'req-1', orgId: 'org-9', msg: 'inside' });
  });
});

describe('ServiceMetrics', () => {
  it('renders request counts and latency histograms by route and status in Prometheus text', async () => {
    const metrics = new ServiceMetrics('svc', { defaultMetrics: false });
    metrics.observeHttp('GET', '/v1/x/:id', 200, 0.004);
    metrics.observeHttp('GET', '/v1/x/:id', 404, 0.002);
    const text = await metrics.render();
    expect(text).toContain('http_requests_total{method="GET",route="/v1/x/:id",status_code="200",service="svc"} 1');
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0.005",.*route="\/v1\/x\/:id",status_code="200"\} 1/);
    expect(text).toMatch(/http_request_duration_seconds_count\{.*status_code="404"\} 1/);
  });
});

describe('probeDependencies', () => {
  it('reports each dependency and is not ready when one is down or too slow', async () => {
    const report = await probeDependencies(
      [
        { name: 'postgresql', check: async () => undefined },
        { name: 'nats', check: () => Promise.reject(new Error('connection refused')) },
        { name: 'redis', check: () => new Promise(() => undefined) },
      ],
      50,
    );
    expect(report.ready).toBe(false);
    expect(report.checks.postgresql.status).toBe('up');
    expect(report.checks.nats).toMatchObject({ status: 'down', error: 'connection refused' });
    expect(report.checks.redis).toMatchObject({ status: 'down', error: 'redis did not answer within 50 ms' });
  });

  it('stays ready when only an optional dependency is down, and says so', async () => {
    const report = await probeDependencies([
      { name: 'nats', check: async () => undefined },
      { name: 'redis', check: () => Promise.reject(new Error('connection refused')), optional: true },
    ]);
    expect(report.ready).toBe(true);
    expect(report.checks.redis).toEqual({ status: 'down', error: 'connection refused', ms: expect.any(Number), optional: true });
  });
});
