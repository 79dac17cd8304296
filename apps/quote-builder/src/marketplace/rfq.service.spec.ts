import { loadConfig } from '@swap/config';
import type { RfqFrame } from '@swap/contracts';
import { InProcessBus, MessagingClient } from '@swap/messaging';
import { ServiceMetrics, startTracing } from '@swap/observability';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { EventEmitter } from 'node:events';
import pino from 'pino';
import type { WebSocket } from 'ws';
import { QuoteBuilderConfig } from '../quote-builder.config';
import { RfqService, type RfqRequest } from './rfq.service';
import { SolverConnections } from './solver-connections';
import type { SolverAccountsService } from './solver-accounts.service';
import { testSigningKeysEnv } from '@swap/testing';

/** A solver's socket as the marketplace sees it; the test decides how the solver answers. */
class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  readonly frames: Record<string, unknown>[] = [];
  constructor(private readonly onFrame: (frame: Record<string, unknown>, socket: FakeSocket) => void = () => undefined) {
    super();
  }
  send(text: string): void {
    const frame = JSON.parse(text) as Record<string, unknown>;
    this.frames.push(frame);
    this.onFrame(frame, this);
  }
  reply(frame: unknown): void {
    this.emit('message', Buffer.from(typeof frame === 'string' ? frame : JSON.stringify(frame)), false);
  }
  close(): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.emit('close', 1000, Buffer.from(''));
  }
  terminate(): void {
    this.close();
  }
}

const quoteAfter = (ms: number, amount: string) => (frame: Record<string, unknown>, socket: FakeSocket) => {
  if (frame.type === 'rfq') setTimeout(() => socket.reply({ type: 'quote', rfq_id: frame.rfq_id, quoted_amount: amount }), ms);
};

const REQUEST: RfqRequest = { token_src: '0x1', token_dst: '0x2', amount: '1000', src_chain_id: '146', dst_chain_id: '146' };

describe('requests for quote: deadline, garbage and departures (one replica, in-process bus)', () => {
  let bus: InProcessBus;
  let connections: SolverConnections;
  let rfq: RfqService;
  let n = 0;
  // Cases that must decide early run with a deadline far off: a busy CI run once stalled 441 ms, past 400.
  const DEADLINE_MS = 400;
  const FAR_DEADLINE_MS = 10_000;
  const EARLY_MS = FAR_DEADLINE_MS / 2;
  let deadlineMs = DEADLINE_MS;
  const connect = (behaviour?: (frame: Record<string, unknown>, socket: FakeSocket) => void) => {
    const socket = new FakeSocket(behaviour);
    n++;
    connections.attach(socket as unknown as WebSocket, { id: `solver-${n}`, name: `solver-${n}` });
    return socket;
  };

  beforeEach(() => {
    // Each test names its own solvers from solver-1: none depends on the ones before it.
    n = 0;
    bus = new InProcessBus();
    const metrics = new ServiceMetrics('quote-builder', { defaultMetrics: false });
    const logger = pino({ level: 'silent' });
    const config = loadConfig(QuoteBuilderConfig, { ...testSigningKeysEnv, RFQ_DEADLINE_MS: String(deadlineMs), RFQ_ACK_WINDOW_MS: '5' });
    connections = new SolverConnections(config, {} as SolverAccountsService, logger, metrics);
    rfq = new RfqService(new MessagingClient(bus, { timeoutMs: 1_000 }), connections, config, logger, metrics);
    rfq.onModuleInit();
  });

  afterEach(async () => {
    await rfq.onModuleDestroy();
    await bus.close();
  });

  describe('decided before the deadline', () => {
    beforeAll(() => (deadlineMs = FAR_DEADLINE_MS));
    afterAll(() => (deadlineMs = DEADLINE_MS));

    it('decides as soon as every asked solver has answered, well before the deadline', async () => {
      connect(quoteAfter(2, '10'));
      connect(quoteAfter(8, '12'));
      const outcome = await rfq.ask(REQUEST);
      expect(outcome.asked).toHaveLength(2);
      expect([...outcome.outcomes.values()].map((o) => o.quotedAmount).sort()).toEqual([10n, 12n]);
      expect(outcome.elapsedMs).toBeLessThan(EARLY_MS);
    });

    it('counts garbage as no answer, tells the solver why, and does not wait for it', async () => {
      const garbage = connect(
        (frame, socket) => frame.type === 'rfq' && socket.reply({ type: 'quote', rfq_id: frame.rfq_id, quoted_amount: '-5' }),
      );
      connect(quoteAfter(1, '3'));
      const outcome = await rfq.ask(REQUEST);
      expect(Object.fromEntries(outcome.outcomes)).toEqual({
        'solver-1': { missed: 'invalid' },
        'solver-2': { quotedAmount: 3n, ms: expect.any(Number) },
      });
      expect(outcome.elapsedMs).toBeLessThan(EARLY_MS);
      expect(garbage.frames.find((f) => f.type === 'error')).toMatchObject({
        message: 'quoted_amount must be a positive integer in a decimal string',
      });
    });

    it('hears at once of a solver that leaves mid-request', async () => {
      connect((frame, socket) => frame.type === 'rfq' && setTimeout(() => socket.close(), 3));
      const outcome = await rfq.ask(REQUEST);
      expect([...outcome.outcomes.values()]).toEqual([{ missed: 'disconnected' }]);
      expect(outcome.elapsedMs).toBeLessThan(EARLY_MS);
    });

    it('with nobody connected, decides after the acknowledgement window, not the deadline', async () => {
      const outcome = await rfq.ask(REQUEST);
      expect(outcome.asked).toEqual([]);
      expect(outcome.elapsedMs).toBeLessThan(EARLY_MS);
    });
  });

  it('sends each solver the request with its deadline, and ignores an answer after it', async () => {
    let lateSent!: () => void;
    const late = new Promise<void>((resolve) => (lateSent = resolve));
    connect(quoteAfter(5, '10'));
    const slow = connect((frame, socket) => {
      if (frame.type !== 'rfq') return;
      setTimeout(() => {
        socket.reply({ type: 'quote', rfq_id: frame.rfq_id, quoted_amount: '999999' });
        lateSent();
      }, DEADLINE_MS + 200);
    });
    let lateWasSent = false;
    void late.then(() => (lateWasSent = true));
    const started = Date.now();
    const outcome = await rfq.ask(REQUEST);
    expect(Date.now() - started).toBeGreaterThanOrEqual(DEADLINE_MS - 10);
    // Decided at the deadline, before the slow solver's answer (timers fire in order, however busy the machine).
    expect(lateWasSent).toBe(false);
    const frame = slow.frames.find((f) => f.type === 'rfq') as unknown as RfqFrame;
    expect(frame).toMatchObject({ token_src: '0x1', token_dst: '0x2', amount: '1000', quote_type: 'exact_input' });
    expect(frame.answer_by - started).toBeLessThanOrEqual(DEADLINE_MS + 1);
    expect([...outcome.outcomes.values()].map((o) => o.quotedAmount)).toEqual([10n]);
    await late;
    // The late answer reached nobody: the outcome handed over is unchanged.
    expect(outcome.outcomes.size).toBe(1);
  });

  it('asks a solver connected twice only once (its newest connection)', async () => {
    const older = new FakeSocket(quoteAfter(1, '1'));
    const newer = new FakeSocket(quoteAfter(1, '2'));
    connections.attach(older as unknown as WebSocket, { id: 'twice', name: 'twice' });
    await new Promise((r) => setImmediate(r));
    connections.attach(newer as unknown as WebSocket, { id: 'twice', name: 'twice' });
    const outcome = await rfq.ask(REQUEST);
    expect(outcome.asked).toEqual([{ id: 'twice', name: 'twice' }]);
    expect(older.frames.filter((f) => f.type === 'rfq')).toEqual([]);
  });

  // Last in this file: tracing, once on, stays on in it.
  describe('traced (an in-memory exporter)', () => {
    const exporter = new InMemorySpanExporter();
    const processor = new SimpleSpanProcessor(exporter);
    beforeAll(() => startTracing('quote-builder', { spanProcessors: [processor] }));

    it('hands solvers the trace context in the frame and records a span per solver asked, with what each did', async () => {
      const quick = connect(quoteAfter(1, '10'));
      connect((frame, socket) => frame.type === 'rfq' && socket.reply({ type: 'decline', rfq_id: frame.rfq_id, code: -4 }));
      connect();
      await rfq.ask(REQUEST);
      await processor.forceFlush();
      const spans = exporter.getFinishedSpans();
      const rfqSpan = spans.find((s) => s.name === 'rfq')!;
      const frame = quick.frames.find((f) => f.type === 'rfq')!;
      expect(frame.traceparent).toBe(`00-${rfqSpan.spanContext().traceId}-${rfqSpan.spanContext().spanId}-01`);
      const asked = spans.filter((s) => s.name.startsWith('rfq solver '));
      expect(asked.map((s) => [s.name, s.attributes['rfq.result'], s.parentSpanContext?.spanId, s.status.code])).toEqual([
        ['rfq solver solver-1', 'quoted', rfqSpan.spanContext().spanId, 0],
        ['rfq solver solver-2', 'declined', rfqSpan.spanContext().spanId, 0],
        ['rfq solver solver-3', 'no-answer', rfqSpan.spanContext().spanId, 2],
      ]);
    });
  });
});
