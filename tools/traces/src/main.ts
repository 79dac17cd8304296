import { OtlpReceiver, type ReceivedSpan } from '@swap/testing';
import { traceTree } from './trace-tree';

/**
 * `npm run traces`: an OTLP/HTTP collector on 127.0.0.1 (OTLP/JSON) that prints each trace
 * as a tree once it has been quiet for a while (docs/operators/tracing.md#seeing-a-trace-locally).
 */
async function main(): Promise<void> {
  const port = Number(process.env.OTLP_PORT ?? 4318);
  const quietMs = Number(process.env.TRACES_QUIET_MS ?? 2_000);
  const match = process.env.TRACES_MATCH?.toLowerCase();
  const pending = new Map<string, { spans: ReceivedSpan[]; last: number }>();
  const receiver = await OtlpReceiver.start(port, { keep: false });
  receiver.onSpans = (spans) => {
    for (const span of spans) {
      const trace = pending.get(span.traceId) ?? { spans: [], last: 0 };
      trace.spans.push(span);
      trace.last = Date.now();
      pending.set(span.traceId, trace);
    }
  };
  setInterval(() => {
    for (const [traceId, trace] of pending) {
      if (Date.now() - trace.last < quietMs) continue;
      pending.delete(traceId);
      const holds = (text: unknown) => String(text).toLowerCase().includes(match!);
      if (match && !trace.spans.some((s) => holds(s.name) || Object.values(s.attributes).some(holds))) continue;
      process.stdout.write(`${traceTree(trace.spans).join('\n')}\n\n`);
    }
  }, 250).unref();
  process.stdout.write(
    `Traces collector on ${receiver.endpoint} (OTLP/JSON): start the platform with OTEL_EXPORTER_OTLP_ENDPOINT=${receiver.endpoint} OTEL_EXPORTER_OTLP_PROTOCOL=http/json\n` +
      (match ? `printing traces with a span whose name or an attribute holds "${match}"\n` : ''),
  );
  const stop = () => void receiver.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main().catch((error: Error) => {
  process.stderr.write(`traces: ${error.message}\n`);
  process.exit(1);
});
