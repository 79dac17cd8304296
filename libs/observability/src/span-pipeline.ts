/* Loaded only when tracing starts: see docs/operators/tracing.md#switching-it-on. */
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { Context } from '@opentelemetry/api';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, type ReadableSpan, type Span, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter as GrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { Counter, type Registry } from 'prom-client';
import type { OtlpProtocol } from './tracing-env';

export type SpanOutcome = 'exported' | 'export_failed' | 'dropped';

/** One per process (every service of the embedded default shares its pipeline); each service's registry shows it. */
export const spansCounter = new Counter<'outcome'>({
  name: 'otel_spans_total',
  help: 'Sampled spans by what became of them: exported to the OTLP endpoint, lost in an export that failed, or dropped with the queue full (OTEL_BSP_MAX_QUEUE_SIZE)',
  labelNames: ['outcome'],
  registers: [],
});

export function registerSpanMetrics(registry: Registry): void {
  if (!registry.getSingleMetric('otel_spans_total')) registry.registerMetric(spansCounter);
}

/** The OTLP exporter the standard variables name (OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL, http/protobuf by default). */
export function otlpExporterFromEnv(env: NodeJS.ProcessEnv = process.env): SpanExporter {
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf').trim();
  const exporters: Record<OtlpProtocol, () => SpanExporter> = {
    grpc: () => new GrpcExporter(),
    'http/json': () => new JsonExporter(),
    'http/protobuf': () => new ProtobufExporter(),
  };
  return (exporters[protocol as OtlpProtocol] ?? exporters['http/protobuf'])();
}

export class CountingExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      spansCounter.inc({ outcome: result.code === ExportResultCode.SUCCESS ? 'exported' : 'export_failed' }, spans.length);
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/** The SDK's batch processor (OTEL_BSP_* apply), counting the spans it drops when its queue is full. */
export class CountingBatchSpanProcessor extends BatchSpanProcessor {
  override onEnd(span: ReadableSpan): void {
    // The SDK keeps the count of spans dropped since the queue last had room (a field of its own; a test pins it).
    const self = this as unknown as { _droppedSpansCount: number };
    const before = self._droppedSpansCount;
    super.onEnd(span);
    if (self._droppedSpansCount > before) spansCounter.inc({ outcome: 'dropped' });
  }
}

/** npm start's one process: a span's resource is the service it started in (service.name), not the process's. */
export class ServiceResourceProcessor implements SpanProcessor {
  private readonly oneResourcePerService = new Map<string, Resource>();

  constructor(private readonly serviceOf: (parent: Context) => string | undefined) {}

  onStart(span: Span, parent: Context): void {
    const service = this.serviceOf(parent);
    if (service === undefined) return;
    let resource = this.oneResourcePerService.get(service);
    if (!resource)
      this.oneResourcePerService.set(service, (resource = span.resource.merge(resourceFromAttributes({ 'service.name': service }))));
    (span as { resource: Resource }).resource = resource;
  }

  onEnd(): void {}

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
