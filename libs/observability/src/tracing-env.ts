import type { BufferConfig } from '@opentelemetry/sdk-trace-base';

export const PROTOCOLS = ['http/protobuf', 'http/json', 'grpc'] as const;
export const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type OtlpProtocol = (typeof PROTOCOLS)[number];
export type SamplerName = (typeof SAMPLERS)[number];
const BATCH: [keyof BufferConfig, string, number][] = [
  ['maxQueueSize', 'OTEL_BSP_MAX_QUEUE_SIZE', 2048],
  ['maxExportBatchSize', 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512],
  ['scheduledDelayMillis', 'OTEL_BSP_SCHEDULE_DELAY', 5000],
  ['exportTimeoutMillis', 'OTEL_BSP_EXPORT_TIMEOUT', 30000],
];

export interface TracingEnvCheck {
  /** Stop the service at start; warnings are said once, the default used. */
  errors: string[];
  warnings: string[];
  /** The batch settings a bad variable would have set, at their defaults (the SDK reads the good ones itself). */
  batch: BufferConfig;
}

/** The standard variables' values, checked before the SDK reads them (docs/operators/tracing.md#switching-it-on). */
export function checkTracingEnv(env: NodeJS.ProcessEnv): TracingEnvCheck {
  const check: TracingEnvCheck = { errors: [], warnings: [], batch: {} };
  for (const name of ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']) {
    const value = env[name]?.trim();
    if (value && !/^https?:$/.test(URL.parse(value)?.protocol ?? ''))
      check.errors.push(`${name} must be an http:// or https:// URL (http://collector:4318), not ${JSON.stringify(value)}`);
  }
  for (const name of ['OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL']) {
    const value = env[name]?.trim();
    if (value && !(PROTOCOLS as readonly string[]).includes(value))
      check.warnings.push(`${name} must be one of ${PROTOCOLS.join(', ')}, not ${JSON.stringify(value)}: using http/protobuf`);
  }
  const sampler = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase();
  if (sampler && !(SAMPLERS as readonly string[]).includes(sampler))
    check.warnings.push(
      `OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(', ')}, not ${JSON.stringify(sampler)}: using parentbased_always_on`,
    );
  const ratio = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  if (sampler?.endsWith('traceidratio') && ratio && !(Number(ratio) >= 0 && Number(ratio) <= 1))
    check.warnings.push(`OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1, not ${JSON.stringify(ratio)}: using 1 (every trace)`);
  for (const [setting, name, fallback] of BATCH) {
    const value = env[name]?.trim();
    if (!value || /^[1-9]\d*$/.test(value)) continue;
    check.warnings.push(`${name} must be a whole number above 0, not ${JSON.stringify(value)}: using ${fallback}`);
    check.batch[setting] = fallback;
  }
  return check;
}
