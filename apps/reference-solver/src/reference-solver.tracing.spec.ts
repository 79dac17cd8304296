import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ExecuteFrame } from '@swap/contracts';
import { startTracing, stopTracing } from '@swap/observability';
import { ReferenceSolver } from './reference-solver';

/* A tracing solver fills inside the trace of the execute frame that offered the intent (docs/operators/tracing.md). */
const EXECUTE = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };
const memory = new InMemorySpanExporter();
const processor = new SimpleSpanProcessor(memory);

beforeAll(() => startTracing('reference-solver', { spanProcessors: [processor] }));
afterAll(() => stopTracing());

it('wraps the fill in an `intent fill` span under the frame’s traceparent, its chain calls inside it', async () => {
  // The fill itself (its chain calls) replaced: what matters is the context it runs in.
  const solver = Object.assign(Object.create(ReferenceSolver.prototype) as object, {
    config: { SOLVER_NAME: 'traced-0' },
    fill: jest.fn(async () => trace.getActiveSpan()?.spanContext().traceId),
  }) as unknown as { tracedFill(frame: ExecuteFrame, out: bigint): Promise<string | undefined>; fill: jest.Mock };
  const frame = {
    type: 'execute',
    intent_hash: `0x${'ab'.repeat(32)}`,
    traceparent: `00-${EXECUTE.traceId}-${EXECUTE.spanId}-01`,
  } as ExecuteFrame;

  await expect(solver.tracedFill(frame, 5n)).resolves.toBe(EXECUTE.traceId);
  expect(solver.fill).toHaveBeenCalledWith(frame, 5n);
  await processor.forceFlush();
  const [span] = memory.getFinishedSpans();
  expect({ name: span.name, traceId: span.spanContext().traceId, parent: span.parentSpanContext?.spanId }).toEqual({
    name: 'intent fill',
    traceId: EXECUTE.traceId,
    parent: EXECUTE.spanId,
  });
  expect(span.attributes).toEqual({ 'solver.name': 'traced-0', 'intent.hash': frame.intent_hash });
});
