import {
  context,
  createContextKey,
  defaultTextMapSetter,
  INVALID_SPAN_CONTEXT,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type TextMapGetter,
  type Tracer,
  type TextMapPropagator,
} from '@opentelemetry/api';
import type { NodeSDKConfiguration } from '@opentelemetry/sdk-node';
import { keepRequestContextIn, type RequestContextData } from './request-context';
import { checkTracingEnv } from './tracing-env';

/** See docs/operators/tracing.md. Off, every helper here is one boolean check. */
let enabled = false;
let shutdown: (() => Promise<void>) | undefined;
/** The W3C trace context propagator, made once tracing starts (every helper runs only then). */
let W3C: TextMapPropagator;
const REQUEST_CONTEXT = createContextKey('swap.request-context');
const SERVICE = createContextKey('swap.service');
let servicesInProcess = false;

export function tracingEnabled(): boolean {
  return enabled;
}

/** Whether the standard variables ask for traces: an OTLP endpoint, the SDK not disabled, an exporter not `none`. */
export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  if (env.OTEL_TRACES_EXPORTER?.split(',').some((e) => e.trim() === 'none')) return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/** Called by each main's first import (before pg and ioredis load); without an endpoint nothing is loaded. */
export function startTracing(
  serviceName: string,
  options: Pick<Partial<NodeSDKConfiguration>, 'spanProcessors'> & { servicesInProcess?: boolean } = {},
): boolean {
  // Processors given (a test's in-memory exporter) replace the OTLP exporter the variables describe.
  if (enabled || (!options.spanProcessors && !tracingRequested())) return enabled;
  const check = checkTracingEnv(process.env);
  if (check.errors.length) {
    process.stderr.write(check.errors.map((e) => `${serviceName}: ${e}\n`).join(''));
    process.exit(78); // EX_CONFIG, as for the services' own variables
  }
  for (const warning of check.warnings) stderrLine('warn', serviceName, warning);
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { UndiciInstrumentation } =
    require('@opentelemetry/instrumentation-undici') as typeof import('@opentelemetry/instrumentation-undici');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { IORedisInstrumentation } =
    require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis');
  const { samplerFromEnv } = require('./tracing-sampler') as typeof import('./tracing-sampler');
  const pipeline = require('./span-pipeline') as typeof import('./span-pipeline');
  const { setGlobalErrorHandler, W3CTraceContextPropagator } = require('@opentelemetry/core') as typeof import('@opentelemetry/core');
  /* eslint-enable @typescript-eslint/no-require-imports */
  W3C = new W3CTraceContextPropagator();
  setGlobalErrorHandler(exportFailed(serviceName));
  servicesInProcess = Boolean(options.servicesInProcess && !process.env.OTEL_SERVICE_NAME);
  const sdk = new NodeSDK({
    ...(process.env.OTEL_SERVICE_NAME ? {} : { serviceName }),
    // The OTLP exporter the variables name, in the SDK's batch processor, both counted (otel_spans_total).
    spanProcessors: [
      ...(servicesInProcess ? [new pipeline.ServiceResourceProcessor(serviceOf)] : []),
      ...(options.spanProcessors ?? [
        new pipeline.CountingBatchSpanProcessor(new pipeline.CountingExporter(pipeline.otlpExporterFromEnv()), check.batch),
      ]),
    ],
    sampler: samplerFromEnv(process.env),
    // W3C trace context only: a caller's baggage would otherwise ride every internal message and call.
    textMapPropagator: W3C,
    metricReaders: [],
    logRecordProcessors: [],
    // Incoming requests get their span from the services' own hooks (startHttpSpan): docs/operators/tracing.md#cost.
    instrumentations: [
      new UndiciInstrumentation({
        requireParentforSpans: true,
        // The gateway's proxied request carries its own context already.
        ignoreRequestHook: (request) => carriesTraceparent(request.headers),
        requestHook: (span, request) => nameClientSpan(span, request.method, request.origin, request.path),
      }),
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  keepRequestContextIn({
    run: (data, fn) => context.with(context.active().setValue(REQUEST_CONTEXT, data), fn),
    get: () => context.active().getValue(REQUEST_CONTEXT) as RequestContextData | undefined,
  });
  enabled = true;
  shutdown = () => sdk.shutdown();
  return true;
}

/** Runs a service's start as that service's: in npm start's one process, the spans of what it sets going carry its name. */
export function asService<T>(name: string, fn: () => T): T {
  return servicesInProcess ? context.with(context.active().setValue(SERVICE, name), fn) : fn();
}

const serviceOf = (ctx: Context) => ctx.getValue(SERVICE) as string | undefined;

function root(): Context {
  const service = servicesInProcess ? serviceOf(context.active()) : undefined;
  return service === undefined ? ROOT_CONTEXT : ROOT_CONTEXT.setValue(SERVICE, service);
}

/** Adds `otel_spans_total` to a service's registry when this process traces (nothing is loaded otherwise). */
export function registerTracingMetrics(registry: import('prom-client').Registry): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when tracing is on
  if (enabled) (require('./span-pipeline') as typeof import('./span-pipeline')).registerSpanMetrics(registry);
}

/** A collector unreachable or refusing: said on stderr, once a minute at most (batches keep being tried). */
function exportFailed(service: string, everyMs = 60_000): (error: unknown) => void {
  let last = 0;
  return (error) => {
    if (Date.now() - last < everyMs) return;
    last = Date.now();
    stderrLine('warn', service, 'traces not exported', error instanceof Error ? error.message : String(error));
  };
}

function stderrLine(level: 'warn', service: string, msg: string, err?: string): void {
  process.stderr.write(
    `${JSON.stringify({ level, time: new Date().toISOString(), service, ...(err === undefined ? {} : { err }), msg })}\n`,
  );
}

function carriesTraceparent(headers: string | string[] | unknown): boolean {
  if (typeof headers === 'string') return /(^|\r\n)traceparent:/i.test(headers);
  return Array.isArray(headers) && headers.some((h, i) => i % 2 === 0 && String(h).toLowerCase() === 'traceparent');
}

/** `POST rpc.example:443`, and no path or query on it: RPC providers put their keys there. */
export function nameClientSpan(span: Pick<Span, 'updateName' | 'setAttributes'>, method: string, origin: string, path: string): void {
  span.updateName(`${method} ${origin.replace(/^https?:\/\//, '')}`);
  span.setAttributes({ 'url.full': origin, 'url.path': path === '/' ? '/' : '[redacted]', 'url.query': '' });
}

/** Exports what is pending (at most `timeoutMs`), then stops; nothing when tracing is off. */
export async function stopTracing(timeoutMs = 2_000): Promise<void> {
  const stop = shutdown;
  shutdown = undefined;
  if (!stop) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([stop().catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
}

/** Adds the active span's `traceparent` (and `tracestate`) to outgoing message headers. */
export function injectTraceContext(headers: Record<string, string>): void {
  if (enabled) W3C.inject(context.active(), headers, defaultTextMapSetter);
}

/** The active span's W3C `traceparent`, for what outlives the request (a stored swap, a solver frame). */
export function activeTraceparent(): string | undefined {
  if (!enabled) return undefined;
  const carrier: Record<string, string> = {};
  W3C.inject(context.active(), carrier, defaultTextMapSetter);
  return carrier.traceparent;
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** Headers of an incoming message: their `traceparent` becomes the span's parent. */
  parentHeaders?: Readonly<Record<string, string | undefined>>;
  /** `traceparent`s this span links to (a swap's settlement to its submit). */
  links?: readonly (string | null | undefined)[];
  /** Only inside a trace (a parent from the headers or the active context): background chatter starts none. */
  requireParent?: boolean;
}

const NO_SPAN = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** Asked of the provider once (a lookup by name and version on every span otherwise). */
let platformTracer: Tracer | undefined;
const tracer = () => (platformTracer ??= trace.getTracer('swap-platform'));

const headerGetter: TextMapGetter<Readonly<Record<string, string | string[] | undefined>>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key],
};

/** Runs `fn` inside a new span, ended when its promise settles; a throw marks the span as an error. */
export function inSpan<T>(name: string, options: SpanOptions, fn: (span: Span) => Promise<T>): Promise<T> {
  if (!enabled) return fn(NO_SPAN);
  const parent = options.parentHeaders ? W3C.extract(root(), options.parentHeaders, headerGetter) : context.active();
  if (options.requireParent && !trace.getSpanContext(parent)) return context.with(parent, () => fn(NO_SPAN));
  const links = linksOf(options.links);
  const span = tracer().startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes, links }, parent);
  return context.with(trace.setSpan(parent, span), async () => {
    try {
      return await fn(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Work a request sets going that outlives it (a timer, a loop): in no trace, or every later turn would join the request's. */
export function detached<T>(fn: () => T): T {
  return enabled ? context.with(root(), fn) : fn();
}

export function annotateSpan(attributes: Attributes): void {
  if (enabled) trace.getActiveSpan()?.setAttributes(attributes);
}

export interface HttpSpan {
  readonly span: Span;
  readonly context: Context;
  ended?: boolean;
}

/**
 * The server span of an incoming request, child of the caller's `traceparent` when it sends one;
 * its context holds the request's too (one context switch per hook). Undefined when off.
 */
export function startHttpSpan(
  method: string,
  path: string,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  request: RequestContextData,
): HttpSpan | undefined {
  if (!enabled) return undefined;
  // The caller's trace and sampling go on; its tracestate (its own vendors' data) stops here, so only traceparent is read.
  const header = headers.traceparent;
  const parent = header ? W3C.extract(root(), { traceparent: header }, headerGetter) : root();
  const span = tracer().startSpan(
    method,
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'url.path': path } },
    parent,
  );
  return { span, context: trace.setSpan(parent, span).setValue(REQUEST_CONTEXT, request) };
}

/** Named after its route, as the semantic conventions name server spans; a 5xx, or no answer (the client left), is an error. */
export function endHttpSpan(http: HttpSpan, method: string, route: string, statusCode?: number): void {
  if (http.ended) return;
  http.ended = true;
  http.span.updateName(`${method} ${route}`);
  http.span.setAttribute('http.route', route);
  if (statusCode !== undefined) http.span.setAttribute('http.response.status_code', statusCode);
  if (statusCode === undefined)
    http.span.setStatus({ code: SpanStatusCode.ERROR, message: 'the client closed the request before the answer' });
  else if (statusCode >= 500) http.span.setStatus({ code: SpanStatusCode.ERROR });
  http.span.end();
}

/** Runs `fn` in the request's trace context (its span active), or as it is when untraced. */
export function inHttpSpan<T>(http: HttpSpan | undefined, fn: () => T): T {
  return http ? context.with(http.context, fn) : fn();
}

/** A span for something already timed (epoch ms), under the active span: a solver's part in an RFQ. */
export function recordSpan(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; startMs: number; endMs: number; error?: string },
): void {
  if (!enabled) return;
  const span = tracer().startSpan(name, {
    kind: options.kind ?? SpanKind.INTERNAL,
    attributes: options.attributes,
    startTime: options.startMs,
  });
  if (options.error) span.setStatus({ code: SpanStatusCode.ERROR, message: options.error });
  span.end(options.endMs);
}

function linksOf(traceparents: SpanOptions['links']): Link[] {
  const links: Link[] = [];
  for (const traceparent of traceparents ?? []) {
    if (!traceparent) continue;
    const spanContext = trace.getSpanContext(W3C.extract(ROOT_CONTEXT, { traceparent }, headerGetter));
    if (spanContext && !links.some((l) => l.context.spanId === spanContext.spanId)) links.push({ context: spanContext });
  }
  return links;
}

export function activeTraceIds(): { traceId: string; spanId: string } | undefined {
  if (!enabled) return undefined;
  const spanContext = trace.getActiveSpan()?.spanContext();
  // Only a recorded trace's: an id that leads to no trace would send the reader looking for one.
  return spanContext && trace.isSpanContextValid(spanContext) && spanContext.traceFlags & TraceFlags.SAMPLED
    ? { traceId: spanContext.traceId, spanId: spanContext.spanId }
    : undefined;
}

export { SpanKind };
