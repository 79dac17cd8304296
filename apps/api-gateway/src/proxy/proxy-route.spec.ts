import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { inHttpSpan, startHttpSpan, startTracing } from '@swap/observability';
import { withGatewayTraceContext } from './proxy-route';

const CALLER = `00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01`;

describe('the headers the gateway passes on, traced', () => {
  beforeAll(() => {
    expect(startTracing('unit', { spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())] })).toBe(true);
  });

  it("carry its own span's traceparent, in the caller's trace, and never the caller's tracestate", () => {
    for (const caller of [{}, { traceparent: CALLER }, { traceparent: CALLER, tracestate: 'vendor=secret' }, { tracestate: 'vendor=x' }]) {
      const http = startHttpSpan('GET', '/v1/x', caller, { requestId: 'r' })!;
      const sent = inHttpSpan(http, () => withGatewayTraceContext({ accept: 'application/json', ...caller }));
      const ownSpan = http.span.spanContext();
      expect(sent).toEqual({ accept: 'application/json', traceparent: `00-${ownSpan.traceId}-${ownSpan.spanId}-01` });
      if (caller.traceparent) expect(ownSpan.traceId).toBe('0af7651916cd43dd8448eb211c80319c');
      http.span.end();
    }
    const malformed = startHttpSpan('GET', '/v1/x', { traceparent: '00-garbage-01' }, { requestId: 'r' })!;
    expect((malformed.span as unknown as { parentSpanContext?: unknown }).parentSpanContext).toBeUndefined(); // a trace of its own
    expect(trace.getSpanContext(malformed.context)).toBe(malformed.span.spanContext());
  });
});
