import { trace, TraceFlags, type Attributes, type Context, type Link, type SpanKind } from '@opentelemetry/api';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  SamplingDecision,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SamplingResult,
} from '@opentelemetry/sdk-trace-base';
import type { SamplerName } from './tracing-env';

/** OTEL_TRACES_SAMPLER and its argument, as the specification names them (default parentbased_always_on). */
export function samplerFromEnv(env: NodeJS.ProcessEnv): Sampler {
  const ratio = Number(env.OTEL_TRACES_SAMPLER_ARG ?? 1);
  const ratioOf = () => new TraceIdRatioBasedSampler(Number.isFinite(ratio) && ratio >= 0 && ratio <= 1 ? ratio : 1);
  const chosen: Record<SamplerName, () => Sampler> = {
    always_on: () => new AlwaysOnSampler(),
    always_off: () => new AlwaysOffSampler(),
    traceidratio: ratioOf,
    parentbased_always_on: () => new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    parentbased_always_off: () => new ParentBasedSampler({ root: new AlwaysOffSampler() }),
    parentbased_traceidratio: () => new ParentBasedSampler({ root: ratioOf() }),
  };
  const name = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || 'parentbased_always_on';
  return new LinkFollowingSampler((chosen[name as SamplerName] ?? chosen.parentbased_always_on)());
}

/**
 * A root span linked to others (a settlement turn, linked to its swap's submit) is sampled as
 * they were: a swap's steps are kept whole or not at all, whatever the ratio.
 */
export class LinkFollowingSampler implements Sampler {
  constructor(private readonly inner: Sampler) {}

  shouldSample(context: Context, traceId: string, name: string, kind: SpanKind, attributes: Attributes, links: Link[]): SamplingResult {
    if (!trace.getSpanContext(context) && links.length > 0) {
      const sampled = links.some((link) => (link.context.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED);
      return { decision: sampled ? SamplingDecision.RECORD_AND_SAMPLED : SamplingDecision.NOT_RECORD };
    }
    return this.inner.shouldSample(context, traceId, name, kind, attributes, links);
  }

  toString(): string {
    return `LinkFollowingSampler{${this.inner.toString()}}`;
  }
}
