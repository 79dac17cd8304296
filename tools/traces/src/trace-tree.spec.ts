import type { ReceivedSpan } from '@swap/testing';
import { traceTree } from './trace-tree';

const span = (fields: Partial<ReceivedSpan> & Pick<ReceivedSpan, 'spanId' | 'name'>, startMs: number, endMs: number): ReceivedSpan => ({
  service: 'svc',
  traceId: 't1',
  kind: 1,
  attributes: {},
  links: [],
  startTimeUnixNano: String(BigInt(startMs) * 1_000_000n),
  endTimeUnixNano: String(BigInt(endMs) * 1_000_000n),
  ...fields,
});

describe('the console collector: a trace as a tree', () => {
  it('nests children under their parents in start order, with offsets, durations, errors and links', () => {
    const lines = traceTree([
      span(
        {
          spanId: 'c',
          parentSpanId: 'a',
          name: 'second',
          service: 'relay-tracker',
          kind: 5,
          links: [{ traceId: 't0', spanId: 'x' }],
          attributes: { 'swap.step.outcome': 'moved to solved', 'not.shown': 1 },
        },
        1_030,
        1_040,
      ),
      span({ spanId: 'a', name: 'POST /v1/swaps/submit-tx', service: 'api-gateway', kind: 2 }, 1_000, 1_050),
      span({ spanId: 'b', parentSpanId: 'a', name: 'first', kind: 3, status: { code: 2, message: 'no answer' } }, 1_010, 1_020),
      span({ spanId: 'd', parentSpanId: 'gone', name: 'orphan' }, 1_045, 1_046),
    ]);
    expect(lines).toEqual([
      'trace t1  1970-01-01T00:00:01.000Z  4 spans  50.0 ms',
      '     0.0 ms     50.0 ms  api-gateway server POST /v1/swaps/submit-tx',
      '    10.0 ms     10.0 ms    svc client first  ERROR no answer',
      '    30.0 ms     10.0 ms    relay-tracker consumer second  [swap.step.outcome=moved to solved]  linked to trace t0',
      '    45.0 ms      1.0 ms  svc internal orphan',
    ]);
  });
});
