import { AppError, ErrorCode, USAGE_BATCH_ROWS, type UsageBatch } from '@swap/contracts';
import { createLogger } from '@swap/observability';
import { UsageRecorder } from './usage-recorder';

const logger = createLogger({ service: 'usage-recorder-spec', level: 'silent' });
const T = Date.parse('2026-11-27T10:00:30Z');

function recorder(send: (batch: UsageBatch) => Promise<unknown>, maxPendingRows = 100_000) {
  return new UsageRecorder({ flushMs: 5_000, maxPendingRows, send, logger });
}

describe('UsageRecorder', () => {
  it('adds requests up per minute, organisation, key, route and outcome, with 4xx and 5xx apart', async () => {
    const sent: UsageBatch[] = [];
    const usage = recorder(async (b) => sent.push(b));
    usage.count('o1', 'k1', 'POST /v1/swaps/quote', 'valid', 200, T);
    usage.count('o1', 'k1', 'POST /v1/swaps/quote', 'valid', 400, T + 1_000);
    usage.count('o1', 'k1', 'POST /v1/swaps/quote', 'valid', 503, T + 2_000);
    usage.count('o1', 'k1', 'POST /v1/swaps/quote', 'valid', 200, T + 40_000);
    usage.count('', '', 'POST /v1/swaps/quote', 'missing', 401, T);
    await usage.flush();
    expect(sent).toHaveLength(1);
    expect(sent[0].rows).toEqual([
      {
        minute: '2026-11-27T10:00:00.000Z',
        orgId: 'o1',
        keyId: 'k1',
        route: 'POST /v1/swaps/quote',
        outcome: 'valid',
        requests: 3,
        clientErrors: 1,
        serverErrors: 1,
      },
      {
        minute: '2026-11-27T10:01:00.000Z',
        orgId: 'o1',
        keyId: 'k1',
        route: 'POST /v1/swaps/quote',
        outcome: 'valid',
        requests: 1,
        clientErrors: 0,
        serverErrors: 0,
      },
      {
        minute: '2026-11-27T10:00:00.000Z',
        orgId: '',
        keyId: '',
        route: 'POST /v1/swaps/quote',
        outcome: 'missing',
        requests: 1,
        clientErrors: 1,
        serverErrors: 0,
      },
    ]);
    await usage.flush();
    expect(sent).toHaveLength(1);
  });

  it.each([
    ['did not take', new AppError(504, ErrorCode.DependencyTimeout, 'no answer')],
    ['refused the signature of', new AppError(401, ErrorCode.Unauthorized, 'This request must be signed by swap-gateway: …')],
  ])('sends a batch key-registry %s again with the same id, before newer ones, and drops one it refused', async (_what, error) => {
    const attempts: UsageBatch[] = [];
    let fail: Error | undefined = error;
    const usage = recorder(async (b) => {
      attempts.push(b);
      if (fail) throw fail;
    });
    usage.count('o1', 'k1', 'GET /v1/swaps/status', 'valid', 200, T);
    await usage.flush();
    usage.count('o1', 'k1', 'GET /v1/swaps/status', 'valid', 200, T + 60_000);
    fail = undefined;
    await usage.flush();
    expect(attempts.map((b) => [b.batchId, b.rows[0].minute])).toEqual([
      [attempts[0].batchId, '2026-11-27T10:00:00.000Z'],
      [attempts[0].batchId, '2026-11-27T10:00:00.000Z'],
      [expect.not.stringMatching(attempts[0].batchId), '2026-11-27T10:01:00.000Z'],
    ]);

    fail = AppError.validation([{ field: 'rows', rule: 'shape', message: 'bad' }]);
    usage.count('o1', 'k1', 'GET /v1/swaps/status', 'valid', 200, T);
    await usage.flush();
    fail = undefined;
    await usage.flush();
    expect(attempts).toHaveLength(4);
  });

  it('drops a batch key-registry has not taken within an hour, so one that can never be taken blocks nothing', async () => {
    let clock = T;
    const tried: string[] = [];
    let down = true;
    const usage = new UsageRecorder({
      flushMs: 5_000,
      maxPendingRows: 100,
      logger,
      now: () => clock,
      send: async (b) => {
        tried.push(b.rows[0].route);
        if (down) throw new Error('no responders');
      },
    });
    usage.count('o1', 'k1', 'GET /old', 'valid', 200, T);
    await usage.flush();
    clock += 3_600_001;
    usage.count('o1', 'k1', 'GET /new', 'valid', 200, clock);
    down = false;
    await usage.flush();
    expect(tried).toEqual(['GET /old', 'GET /new']);
  });

  it('on shutdown waits for a flush under way, then sends what was counted meanwhile', async () => {
    const sent: string[] = [];
    let release: () => void = () => undefined;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const usage = recorder(async (b) => {
      if (sent.length === 0) await slow;
      sent.push(...b.rows.map((r) => r.route));
    });
    usage.count('o1', 'k1', 'GET /first', 'valid', 200, T);
    const underWay = usage.flush();
    usage.count('o1', 'k1', 'GET /during', 'valid', 200, T);
    const stopped = usage.onApplicationShutdown();
    release();
    await Promise.all([underWay, stopped]);
    expect(sent).toEqual(['GET /first', 'GET /during']);
  });

  it('splits into batches key-registry takes and holds at most maxPendingRows while it is away', async () => {
    const sent: UsageBatch[] = [];
    const usage = recorder(async (b) => sent.push(b));
    for (let i = 0; i < USAGE_BATCH_ROWS + 10; i++) usage.count('o1', 'k1', `GET /r${i}`, 'valid', 200, T);
    await usage.flush();
    expect(sent.map((b) => b.rows.length)).toEqual([USAGE_BATCH_ROWS, 10]);

    let away = true;
    const taken: UsageBatch[] = [];
    const held = recorder(async (b) => {
      if (away) throw new Error('bus down');
      taken.push(b);
    }, 3);
    for (let i = 0; i < 5; i++) held.count('o1', 'k1', `GET /r${i}`, 'valid', 200, T);
    await held.flush();
    held.count('o1', 'k1', 'GET /r9', 'valid', 200, T);
    away = false;
    await held.flush();
    expect(taken.flatMap((b) => b.rows.map((r) => r.route))).toEqual(['GET /r0', 'GET /r1', 'GET /r2']);
  });
});
