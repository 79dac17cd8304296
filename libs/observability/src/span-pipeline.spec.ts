import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter as GrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BasicTracerProvider, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { Registry } from 'prom-client';
import { CountingBatchSpanProcessor, CountingExporter, otlpExporterFromEnv, registerSpanMetrics, spansCounter } from './span-pipeline';

/** Answers each export with the next result given. */
class ScriptedExporter implements SpanExporter {
  readonly received: ReadableSpan[][] = [];
  constructor(private readonly results: ExportResultCode[]) {}
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.received.push(spans);
    done({ code: this.results.shift() ?? ExportResultCode.SUCCESS });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const counts = async () =>
  Object.fromEntries((await spansCounter.get()).values.map((v) => [v.labels.outcome as string, v.value])) as Record<string, number>;

describe('the span pipeline: what became of each sampled span (otel_spans_total)', () => {
  beforeEach(() => spansCounter.reset());

  it('counts the spans of each export by its result', async () => {
    const inner = new ScriptedExporter([ExportResultCode.SUCCESS, ExportResultCode.FAILED]);
    const exporter = new CountingExporter(inner);
    const span = {} as ReadableSpan;
    const results: ExportResultCode[] = [];
    exporter.export([span, span, span], (r) => results.push(r.code));
    exporter.export([span, span], (r) => results.push(r.code));
    expect(results).toEqual([ExportResultCode.SUCCESS, ExportResultCode.FAILED]);
    expect(await counts()).toEqual({ exported: 3, export_failed: 2 });
  });

  it('counts the spans the batch processor drops with its queue full, and exports the rest', async () => {
    const inner = new ScriptedExporter([]);
    const processor = new CountingBatchSpanProcessor(new CountingExporter(inner), { maxQueueSize: 2, scheduledDelayMillis: 60_000 });
    const tracer = new BasicTracerProvider({ spanProcessors: [processor] }).getTracer('test');
    for (let i = 0; i < 5; i++) tracer.startSpan(`span ${i}`).end();
    await processor.forceFlush();
    // However the SDK batches them, every span is either exported or counted dropped, and some were dropped.
    const exported = inner.received.flat().length;
    const { dropped, exported: counted } = await counts();
    expect({ counted, total: exported + dropped }).toEqual({ counted: exported, total: 5 });
    expect(dropped).toBeGreaterThan(0);
    await processor.shutdown();
  });

  it('takes the exporter the standard variables name, http/protobuf by default', () => {
    expect(otlpExporterFromEnv({})).toBeInstanceOf(ProtobufExporter);
    expect(otlpExporterFromEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBeInstanceOf(JsonExporter);
    expect(otlpExporterFromEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' })).toBeInstanceOf(
      GrpcExporter,
    );
  });

  it('shows in a service’s registry once, however often it is added', async () => {
    const registry = new Registry();
    registerSpanMetrics(registry);
    registerSpanMetrics(registry);
    spansCounter.inc({ outcome: 'exported' }, 4);
    expect(await registry.metrics()).toContain('otel_spans_total{outcome="exported"} 4');
  });
});
