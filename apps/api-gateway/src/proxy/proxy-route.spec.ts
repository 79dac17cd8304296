import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { inHttpSpan, startHttpSpan, startTracing } from '@swap/observability';
import { withGatewayTraceContext } from './proxy-route';

const [CALLER_TRACE, CALLER_SPAN] = ['0af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203331'];
const CALLER = `00-${CALLER_TRACE}-${CALLER_SPAN}-01`;

describe('the headers the gateway passes on, traced', () => {
  beforeAll(() => {
    expect(startTracing('unit', { spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())] })).toBe(true);
  });

  it("carry its own span's traceparent, in the caller's trace, and never the caller's tracestate", () => {
    for (const caller of [{}, { traceparent: CALLER }, { traceparent: CALLER, tracestate: 'vendor=secret' }, { tracestate: 'vendor=x' }]) {
      const http = startHttpSpan('GET', '/v1/x', caller, { requestId: 'r' })!;
      const sent = inHttpSpan(http, () => withGatewayTraceContext({ accept: 'application/json', ...caller }));
      const ownSpan = http.span.spanContext();
      expect(sent).toStrictEqual({ accept: 'application/json', traceparent: `00-${ownSpan.traceId}-${ownSpan.spanId}-01` });
      const parent = (http.span as unknown as { parentSpanContext?: { traceId: string; spanId: string; isRemote?: boolean } })
        .parentSpanContext;
      if (caller.traceparent) expect(parent).toMatchObject({ traceId: CALLER_TRACE, spanId: CALLER_SPAN, isRemote: true });
      else expect(parent).toBeUndefined();
      http.span.end();
    }
    const malformed = startHttpSpan('GET', '/v1/x', { traceparent: '00-garbage-01' }, { requestId: 'r' })!;
    expect((malformed.span as unknown as { parentSpanContext?: unknown }).parentSpanContext).toBeUndefined(); // a trace of its own
    malformed.span.end();
  });
});
