import type { Intent } from '@swap/contracts';
import { events, settlement, SPOKE, spokeIntent, tx, type Settlement } from './settlement.doubles';

/**
 * A swap posted to the solvers whose deadline (2025-11-22T13:00:00Z) passes with no fill:
 * decided by the hub follower's clock (every hub event up to it is in the index), not by
 * the wall clock.
 */
describe('settlement: the deadline passed unfilled', () => {
  const DEADLINE_PASSED =
    "No solver filled your swap before its deadline (2025-11-22T13:00:00.000Z). Your input is held for you on the hub and can be recovered with a cancel: POST /v1/swaps/intents/cancel with this swap's intent.";
  const SOURCE = tx('deposit');
  const CREATED = tx('intent created on the hub');
  let s: Settlement;

  beforeEach(() => jest.useFakeTimers({ now: Date.parse('2025-11-22T12:59:45.000Z') }));
  afterEach(() => jest.useRealTimers());

  /** Posted to the solvers at `now`, its intent created on the hub, the hub follower's clock at `hubTime`. */
  const posted = (now: string, hubTime: string, intent: Intent = spokeIntent()) => {
    jest.setSystemTime(Date.parse(now));
    s = settlement();
    s.store.index.push(events.created(intent, CREATED));
    s.store.hubTime = new Date(hubTime);
    return s.store.submitted(intent, { txHash: SOURCE, srcChainKey: SPOKE.key, status: 'posted_execution', hubTxHash: CREATED }).id;
  };

  const state = (id: string) => {
    const row = s.store.get(id);
    return { status: row.status, failedAtStep: row.failedAtStep, userMessage: row.userMessage, wakeAt: row.wakeAt };
  };

  it('the hub clock before the deadline: waits, looked at again a second after the deadline', async () => {
    const id = posted('2025-11-22T12:59:45.000Z', '2025-11-22T12:59:44.000Z');

    await expect(s.run(id)).resolves.toEqual({ done: true });

    expect(state(id)).toEqual({
      status: 'posted_execution',
      failedAtStep: null,
      userMessage: null,
      wakeAt: new Date('2025-11-22T13:00:01.000Z'),
    });
  });

  it('the wall clock past the deadline, the hub follower not yet: looked at again each second, then every 5 s', async () => {
    const soon = posted('2025-11-22T13:00:02.000Z', '2025-11-22T12:59:59.000Z');
    await s.run(soon);
    expect(state(soon)).toMatchObject({ status: 'posted_execution', wakeAt: new Date('2025-11-22T13:00:03.000Z') });

    const later = posted('2025-11-22T13:00:20.000Z', '2025-11-22T12:59:59.000Z');
    await s.run(later);
    expect(state(later)).toMatchObject({ status: 'posted_execution', wakeAt: new Date('2025-11-22T13:00:25.000Z') });
  });

  it('a deadline further off than the fallback period: looked at again after the fallback period', async () => {
    const id = posted('2025-11-22T12:50:00.000Z', '2025-11-22T12:49:59.000Z');

    await s.run(id);

    expect(state(id)).toMatchObject({ status: 'posted_execution', wakeAt: new Date('2025-11-22T12:50:30.000Z') });
  });

  it('the hub clock past the deadline with no fill: failed "deadline passed unfilled", its message naming the cancel route', async () => {
    const id = posted('2025-11-22T13:00:02.000Z', '2025-11-22T13:00:01.000Z');

    await expect(s.run(id)).resolves.toEqual({ done: true });

    expect(state(id)).toEqual({
      status: 'failed',
      failedAtStep: 'posted_execution',
      userMessage: DEADLINE_PASSED,
      // Watched for the cancel that recovers the input: looked at again in ten fallback periods (5 minutes).
      wakeAt: new Date('2025-11-22T13:05:02.000Z'),
    });
    expect(s.store.statuses(id)).toEqual(['pending', 'relaying', 'relayed', 'posting_execution', 'posted_execution', 'failed']);
    expect(s.store.announced).toEqual([
      { txHash: SOURCE, from: 'posted_execution', status: 'failed', detail: 'deadline passed unfilled', terminal: true },
    ]);
    expect(s.store.get(id).intentCancelled).toBe(false);
  });

  it('the wall clock past the deadline does not fail it while the hub follower has not read that far', async () => {
    const id = posted('2025-11-22T13:00:30.000Z', '2025-11-22T12:59:58.000Z');

    await s.run(id);

    expect(state(id)).toMatchObject({ status: 'posted_execution', userMessage: null });
  });

  it('a fill in the index wins over a passed deadline: solved with the fill', async () => {
    const id = posted('2025-11-22T13:10:00.000Z', '2025-11-22T13:09:59.000Z');
    s.store.index.push(events.filled(spokeIntent(), tx('fill')));

    await expect(s.run(id)).resolves.toEqual({ done: true });

    const row = s.store.get(id);
    expect({ status: row.status, fillTxHash: row.fillTxHash, userMessage: row.userMessage, wakeAt: row.wakeAt }).toEqual({
      status: 'solved',
      fillTxHash: tx('fill'),
      userMessage: null,
      wakeAt: null,
    });
    expect((row.history as { detail: string }[]).at(-1)).toMatchObject({ status: 'solved', detail: `filled in ${tx('fill')}` });
  });

  it('a limit order (deadline 0) never fails on time: looked at again after the fallback period', async () => {
    const order = spokeIntent({ deadline: '0' });
    const id = posted('2026-03-01T00:00:00.000Z', '2026-02-28T23:59:59.000Z', order);

    await s.run(id);

    expect(state(id)).toEqual({
      status: 'posted_execution',
      failedAtStep: null,
      userMessage: null,
      wakeAt: new Date('2026-03-01T00:00:30.000Z'),
    });
  });
});
