import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Writable } from 'node:stream';
import { createLogger } from './logger';
import { RequestContext } from './request-context';
import { ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { SamplingDecision } from '@opentelemetry/sdk-trace-base';
import { checkTracingEnv } from './tracing-env';
import { LinkFollowingSampler, samplerFromEnv } from './tracing-sampler';
import {
  activeTraceIds,
  inHttpSpan,
  nameClientSpan,
  startHttpSpan,
  activeTraceparent,
  injectTraceContext,
  inSpan,
  recordSpan,
  SpanKind,
  startTracing,
  tracingEnabled,
  tracingRequested,
} from './tracing';

const PARENT = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' };
const PARENT_HEADER = `00-${PARENT.traceId}-${PARENT.spanId}-01`;

describe('tracing: what switches it on', () => {
  it('needs an OTLP endpoint, and is off again with OTEL_SDK_DISABLED or the exporter none', () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'TRUE' })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
  });

  it('refuses an endpoint that is no http(s) URL, and says which default replaces any other bad value', () => {
    expect(checkTracingEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://c:4318', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio' })).toEqual({
      errors: [],
      warnings: [],
      batch: {},
    });
    expect(
      checkTracingEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'ftp://c/v1/traces' }).errors,
    ).toEqual([
      'OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL (http://collector:4318), not "not a url"',
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http:// or https:// URL (http://collector:4318), not "ftp://c/v1/traces"',
    ]);
    const check = checkTracingEnv({
      OTEL_EXPORTER_OTLP_PROTOCOL: 'bogus',
      OTEL_TRACES_SAMPLER: 'traceidratio',
      OTEL_TRACES_SAMPLER_ARG: 'abc',
      OTEL_BSP_MAX_QUEUE_SIZE: '0',
      OTEL_BSP_SCHEDULE_DELAY: '-5',
      OTEL_BSP_EXPORT_TIMEOUT: '1000',
    });
    expect(check.errors).toEqual([]);
    expect(check.warnings).toEqual([
      'OTEL_EXPORTER_OTLP_PROTOCOL must be one of http/protobuf, http/json, grpc, not "bogus": using http/protobuf',
      'OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1, not "abc": using 1 (every trace)',
      'OTEL_BSP_MAX_QUEUE_SIZE must be a whole number above 0, not "0": using 2048',
      'OTEL_BSP_SCHEDULE_DELAY must be a whole number above 0, not "-5": using 5000',
    ]);
    expect(check.batch).toEqual({ maxQueueSize: 2048, scheduledDelayMillis: 5000 });
    expect(checkTracingEnv({ OTEL_TRACES_SAMPLER: 'bogus_sampler', OTEL_TRACES_SAMPLER_ARG: '2' }).warnings).toEqual([
      expect.stringMatching(/^OTEL_TRACES_SAMPLER must be one of always_on, .+, not "bogus_sampler": using parentbased_always_on$/),
    ]);
  });

  it('stops a service at start on a bad endpoint, naming it (exit 78, as for its own variables)', () => {
    const exit = jest.spyOn(process, 'exit').mockImplementation(((code: number) => {
      throw new Error(`exit ${code}`);
    }) as never);
    const write = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = 'not a url';
    try {
      expect(() => startTracing('some-service')).toThrow('exit 78');
      expect(write.mock.calls).toEqual([
        ['some-service: OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL (http://collector:4318), not "not a url"\n'],
      ]);
      expect(tracingEnabled()).toBe(false);
    } finally {
      delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
      exit.mockRestore();
      write.mockRestore();
    }
  });
});

describe('tracing: sampling and what a span may say', () => {
  const sampled = (traceFlags: number) => ({ context: { traceId: '1'.repeat(32), spanId: '2'.repeat(16), traceFlags } });
  const decide = (sampler: ReturnType<typeof samplerFromEnv>, links: ReturnType<typeof sampled>[], parent = ROOT_CONTEXT) =>
    sampler.shouldSample(parent, '3'.repeat(32), 'settlement turn', SpanKind.CONSUMER, {}, links).decision;

  it('samples a linked root as its links were, whatever the ratio: a swap kept whole or not at all', () => {
    const never = samplerFromEnv({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' });
    expect(decide(never, [sampled(TraceFlags.SAMPLED)])).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide(samplerFromEnv({}), [sampled(TraceFlags.NONE)])).toBe(SamplingDecision.NOT_RECORD);
    expect(decide(never, [])).toBe(SamplingDecision.NOT_RECORD);
    expect(decide(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'nonsense' }), [])).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    const child = trace.setSpanContext(ROOT_CONTEXT, { ...sampled(TraceFlags.NONE).context, isRemote: true });
    expect(decide(new LinkFollowingSampler(samplerFromEnv({}) as never), [sampled(TraceFlags.SAMPLED)], child)).toBe(
      SamplingDecision.NOT_RECORD,
    );
  });

  it('names an outgoing call by its host and keeps the path and query (an RPC key) out of it', () => {
    const attributes: Record<string, unknown> = {};
    let name = '';
    const span = { updateName: (n: string) => ((name = n), span), setAttributes: (a: object) => (Object.assign(attributes, a), span) };
    nameClientSpan(span as never, 'POST', 'https://arb-mainnet.example.com', '/v2/s3cr3t-key?x=1');
    expect(name).toBe('POST arb-mainnet.example.com');
    expect(attributes).toEqual({ 'url.full': 'https://arb-mainnet.example.com', 'url.path': '[redacted]', 'url.query': '' });
    expect(JSON.stringify(attributes)).not.toContain('s3cr3t');
  });
});

describe('tracing helpers', () => {
  const exporter = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor(exporter);
  /** Exported once the resource's detected attributes are in (asynchronous): flushed first. */
  const finished = async () => (await processor.forceFlush(), exporter.getFinishedSpans());
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({
    service: 'svc',
    destination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()));
        done();
      },
    }),
  });

  it('are no-ops while tracing is off: no context given out, the work still runs', async () => {
    expect(tracingEnabled()).toBe(false);
    const headers: Record<string, string> = {};
    injectTraceContext(headers);
    expect(headers).toEqual({});
    expect(await inSpan('off', { parentHeaders: { traceparent: PARENT_HEADER } }, async () => activeTraceparent())).toBeUndefined();
    expect(activeTraceIds()).toBeUndefined();
  });

  describe('with tracing on (an in-memory exporter)', () => {
    beforeAll(() => {
      expect(startTracing('unit', { spanProcessors: [processor] })).toBe(true);
    });
    beforeEach(() => exporter.reset());

    it('continues the trace of an incoming message, hands its context on, and puts the ids on log lines', async () => {
      const sent: Record<string, string> = {};
      await inSpan('subject process', { kind: SpanKind.SERVER, parentHeaders: { traceparent: PARENT_HEADER } }, async () => {
        injectTraceContext(sent);
        // Tracing on, the request context rides OpenTelemetry's context: both reach the line.
        await RequestContext.run({ requestId: 'req-7' }, async () => {
          await new Promise((resolve) => setImmediate(resolve));
          logger.info('inside');
        });
      });
      logger.info('outside');
      const [span] = await finished();
      expect(span.spanContext().traceId).toBe(PARENT.traceId);
      expect(span.parentSpanContext?.spanId).toBe(PARENT.spanId);
      expect(span.kind).toBe(SpanKind.SERVER);
      expect(sent.traceparent).toBe(`00-${PARENT.traceId}-${span.spanContext().spanId}-01`);
      await new Promise((resolve) => setImmediate(resolve));
      expect(lines.map((l) => [l.msg, l.requestId, l.traceId, l.spanId])).toEqual([
        ['inside', 'req-7', PARENT.traceId, span.spanContext().spanId],
        ['outside', undefined, undefined, undefined],
      ]);
    });

    it('logs trace ids only for a recorded trace, and keeps a caller’s tracestate out of what it passes on', async () => {
      await inSpan('unsampled', { parentHeaders: { traceparent: `00-${PARENT.traceId}-${PARENT.spanId}-00` } }, async () =>
        logger.info('not recorded'),
      );
      const http = startHttpSpan('GET', '/x', { traceparent: PARENT_HEADER, tracestate: 'vendor=secret' }, { requestId: 'r' })!;
      const sent: Record<string, string> = {};
      inHttpSpan(http, () => injectTraceContext(sent));
      await new Promise((resolve) => setImmediate(resolve));
      expect(lines.find((l) => l.msg === 'not recorded')).not.toHaveProperty('traceId');
      expect(sent.traceparent).toContain(PARENT.traceId);
      expect(sent).not.toHaveProperty('tracestate');
    });

    it('links to what it outlives, once each, ignoring missing and malformed contexts', async () => {
      const other = `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01`;
      await inSpan('settlement turn', { links: [PARENT_HEADER, undefined, null, 'garbage', PARENT_HEADER, other] }, async () => undefined);
      const [span] = await finished();
      expect(span.parentSpanContext).toBeUndefined();
      expect(span.links.map((l) => l.context.traceId)).toEqual([PARENT.traceId, '1'.repeat(32)]);
    });

    it('starts nothing where the caller asks for a parent and there is none', async () => {
      const inside = await inSpan('chatter process', { parentHeaders: {}, requireParent: true }, async () => activeTraceparent());
      expect(inside).toBeUndefined();
      await inSpan('request', { requireParent: true }, async () => undefined);
      expect(await finished()).toEqual([]);
    });

    it('marks a span whose work throws, and rethrows', async () => {
      await expect(
        inSpan('failing', {}, async () => {
          throw new Error('no answer');
        }),
      ).rejects.toThrow('no answer');
      const [span] = await finished();
      expect(span.status).toEqual({ code: 2, message: 'no answer' });
      expect(span.events.map((e) => e.name)).toEqual(['exception']);
    });

    it('records an already timed span under the active one', async () => {
      await inSpan('rfq', {}, async () =>
        recordSpan('rfq solver a', { startMs: 1_000_000, endMs: 1_000_050, error: 'no answer by the deadline' }),
      );
      const [solver, rfq] = await finished();
      expect(solver.parentSpanContext?.spanId).toBe(rfq.spanContext().spanId);
      expect(solver.duration).toEqual([0, 50_000_000]);
      expect(solver.status.code).toBe(2);
    });
  });
});
