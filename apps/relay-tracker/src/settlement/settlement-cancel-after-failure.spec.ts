import { AppError, ErrorCode } from '@swap/contracts';
import { events, settlement, SETTINGS, SPOKE, spokeIntent, tx, type Settlement } from './settlement.doubles';

/**
 * A swap that failed with its intent open on the hub (the deadline passed unfilled): its
 * input is recovered with a cancel, which relay-tracker watches for CANCEL_WATCH_MS (a day)
 * and shows as `intentCancelled: true`.
 */
describe('settlement: the cancel after a failure', () => {
  const FAILED_AT = Date.parse('2025-11-22T13:00:02.000Z');
  const SOURCE = tx('deposit');
  const CREATED = tx('intent created on the hub');
  const CANCEL = tx('cancel');
  const intent = spokeIntent();
  let s: Settlement;
  let id: string;

  beforeEach(async () => {
    jest.useFakeTimers({ now: FAILED_AT });
    s = settlement();
    s.store.index.push(events.created(intent, CREATED));
    s.store.hubTime = new Date('2025-11-22T13:00:01.000Z');
    id = s.store.submitted(intent, { txHash: SOURCE, srcChainKey: SPOKE.key, status: 'posted_execution', hubTxHash: CREATED }).id;
    await s.run(id);
  });

  afterEach(() => jest.useRealTimers());

  const state = () => {
    const row = s.store.get(id);
    return { status: row.status, intentCancelled: row.intentCancelled, wakeAt: row.wakeAt };
  };

  it('failed at posted_execution (deadline passed): watched, looked at again in ten fallback periods', () => {
    expect(state()).toEqual({ status: 'failed', intentCancelled: false, wakeAt: new Date('2025-11-22T13:05:02.000Z') });
    expect(s.store.get(id).failedAtStep).toBe('posted_execution');
  });

  it('the hub follower sees IntentCancelled: intentCancelled true, no longer watched, the failure itself unchanged', async () => {
    const failed = s.store.get(id);
    jest.setSystemTime(FAILED_AT + 3 * 60_000);
    s.store.record(events.cancelled(intent, CANCEL));

    await expect(s.run(id)).resolves.toEqual({ done: true });

    expect(state()).toEqual({ status: 'failed', intentCancelled: true, wakeAt: null });
    const row = s.store.get(id);
    expect({ userMessage: row.userMessage, failedAtStep: row.failedAtStep, history: row.history }).toEqual({
      userMessage: failed.userMessage,
      failedAtStep: 'posted_execution',
      history: failed.history,
    });
    expect(s.store.announced.map((a) => a.status)).toEqual(['failed']);
  });

  it('no cancel yet: watched on, every ten fallback periods', async () => {
    jest.setSystemTime(FAILED_AT + 10 * SETTINGS.FALLBACK_CHECK_MS);

    await s.run(id);

    expect(state()).toEqual({ status: 'failed', intentCancelled: false, wakeAt: new Date('2025-11-22T13:10:02.000Z') });
  });

  it('near the end of the watch: looked at again when it ends', async () => {
    jest.setSystemTime(FAILED_AT + SETTINGS.CANCEL_WATCH_MS - 60_000);

    await s.run(id);

    expect(state()).toMatchObject({ wakeAt: new Date('2025-11-23T13:00:02.000Z') });
  });

  it('past CANCEL_WATCH_MS it stops watching: a later cancel wakes nothing and is not shown', async () => {
    jest.setSystemTime(FAILED_AT + SETTINGS.CANCEL_WATCH_MS + 1);
    await s.run(id);
    expect(state()).toEqual({ status: 'failed', intentCancelled: false, wakeAt: null });

    s.store.record(events.cancelled(intent, CANCEL));
    expect(s.store.get(id).eventSeq).toBe(0);
    await s.run(id);

    expect(state()).toEqual({ status: 'failed', intentCancelled: false, wakeAt: null });
  });
});

describe('settlement: a cancel before any failure or fill', () => {
  const SOURCE = tx('deposit');
  const CREATED = tx('intent created on the hub');
  const intent = spokeIntent();
  let s: Settlement;

  beforeEach(() => {
    jest.useFakeTimers({ now: Date.parse('2025-11-22T12:55:00.000Z') });
    s = settlement();
    s.store.index.push(events.created(intent, CREATED));
    s.store.hubTime = new Date('2025-11-22T12:54:59.000Z');
  });

  afterEach(() => jest.useRealTimers());

  it('cancelled on the hub while posted: failed "intent cancelled", intentCancelled true, nothing left to watch', async () => {
    const { id } = s.store.submitted(intent, { txHash: SOURCE, srcChainKey: SPOKE.key, status: 'posted_execution', hubTxHash: CREATED });
    s.store.record(events.cancelled(intent, tx('cancel')));

    await s.run(id);

    const row = s.store.get(id);
    expect({
      status: row.status,
      failedAtStep: row.failedAtStep,
      userMessage: row.userMessage,
      intentCancelled: row.intentCancelled,
      wakeAt: row.wakeAt,
    }).toEqual({
      status: 'failed',
      failedAtStep: 'posted_execution',
      userMessage: 'The swap was cancelled before a solver filled it; its input was refunded.',
      intentCancelled: true,
      wakeAt: null,
    });
  });

  it('refused by the marketplace with its intent open on the hub: the cancel is watched and shown too', async () => {
    const { id } = s.store.submitted(intent, { txHash: SOURCE, srcChainKey: SPOKE.key, status: 'posting_execution', hubTxHash: CREATED });
    s.marketplace.refusal = new AppError(409, ErrorCode.QuoteMismatch, 'The intent swaps other tokens than quote q_1');
    await s.run(id);
    s.marketplace.refusal = undefined;

    s.store.record(events.cancelled(intent, tx('cancel')));
    await s.run(id);

    expect(s.store.get(id)).toMatchObject({ status: 'failed', intentCancelled: true });
  });
});
