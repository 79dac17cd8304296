import type { ReceivedSpan } from '@swap/testing';

const KIND = ['', 'internal', 'server', 'client', 'producer', 'consumer'];

const ms = (nanos: string) => Number(BigInt(nanos) / 1000n) / 1000;

/** Shown on a span's line when it has them: what a swap, a step or an answer was. */
const SHOWN = ['swap.tx_hash', 'swap.step.outcome', 'rfq.result', 'solver.name', 'http.response.status_code', 'messaging.delivery.attempt'];

/** One trace as an indented tree: offset from its first span, duration, service, kind, name, links. */
export function traceTree(spans: readonly ReceivedSpan[]): string[] {
  const ids = new Set(spans.map((s) => s.spanId));
  const children = new Map<string, ReceivedSpan[]>();
  const roots: ReceivedSpan[] = [];
  for (const span of [...spans].sort((a, b) => (BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1))) {
    if (span.parentSpanId && ids.has(span.parentSpanId))
      children.set(span.parentSpanId, [...(children.get(span.parentSpanId) ?? []), span]);
    else roots.push(span);
  }
  const start = Math.min(...spans.map((s) => ms(s.startTimeUnixNano)));
  const end = Math.max(...spans.map((s) => ms(s.endTimeUnixNano)));
  const lines = [`trace ${spans[0].traceId}  ${new Date(start).toISOString()}  ${spans.length} spans  ${(end - start).toFixed(1)} ms`];
  const walk = (span: ReceivedSpan, depth: number) => {
    const offset = (ms(span.startTimeUnixNano) - start).toFixed(1).padStart(8);
    const took = (ms(span.endTimeUnixNano) - ms(span.startTimeUnixNano)).toFixed(1).padStart(8);
    const error = span.status?.code === 2 ? `  ERROR ${span.status.message ?? ''}`.trimEnd() : '';
    const links = span.links.length ? `  linked to ${span.links.map((l) => `trace ${l.traceId}`).join(', ')}` : '';
    const shown = SHOWN.filter((key) => span.attributes[key] !== undefined).map((key) => `${key}=${String(span.attributes[key])}`);
    const attributes = shown.length ? `  [${shown.join(' ')}]` : '';
    lines.push(
      `${offset} ms ${took} ms  ${'  '.repeat(depth)}${span.service} ${KIND[span.kind] ?? ''} ${span.name}${attributes}${error}${links}`,
    );
    for (const child of children.get(span.spanId) ?? []) walk(child, depth + 1);
  };
  for (const root of roots) walk(root, 0);
  return lines;
}
