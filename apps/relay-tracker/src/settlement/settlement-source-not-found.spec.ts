import { settlement, SETTINGS, SPOKE, spokeDeposit, spokeIntent, tx, type Settlement } from './settlement.doubles';

/**
 * A source transaction the chain says it does not know: waited for within
 * NOT_FOUND_WINDOW_MS (10 minutes), then failed; a chain that cannot be read says nothing.
 */
describe('settlement: the source transaction is not found within the window', () => {
  const NOW = Date.parse('2025-11-22T12:50:00.000Z');
  const MINUTE = 60_000;
  const NOT_FOUND =
    'We could not find this transaction on 0xa4b1.arbitrum for 10 minutes: it was probably never broadcast, or it was replaced. Nothing left your wallet for this swap.';
  let s: Settlement;
  let id: string;

  beforeEach(() => {
    jest.useFakeTimers({ now: NOW });
    s = settlement();
    id = s.store.submitted(spokeIntent(), { txHash: tx('never broadcast'), srcChainKey: SPOKE.key }).id;
  });

  afterEach(() => jest.useRealTimers());

  const state = () => {
    const row = s.store.get(id);
    return { status: row.status, notFoundSince: row.notFoundSince, wakeAt: row.wakeAt, processingAttempts: row.processingAttempts };
  };

  it('unknown to the chain: waits, the window starting now, looked at again after the fallback period', async () => {
    await expect(s.run(id)).resolves.toEqual({ done: true });

    expect(state()).toEqual({
      status: 'pending',
      notFoundSince: new Date('2025-11-22T12:50:00.000Z'),
      wakeAt: new Date('2025-11-22T12:50:30.000Z'),
      processingAttempts: 0,
    });
    expect(s.store.statuses(id)).toEqual(['pending']);
    expect(s.chains.relay.submits).toEqual([]);
  });

  it('near the end of the window it is looked at again when the window ends, not a fallback period later', async () => {
    await s.run(id);
    jest.setSystemTime(NOW + 9 * MINUTE + 50_000);

    await s.run(id);

    expect(state()).toEqual({
      status: 'pending',
      notFoundSince: new Date('2025-11-22T12:50:00.000Z'),
      wakeAt: new Date('2025-11-22T13:00:00.000Z'),
      processingAttempts: 0,
    });
  });

  it('still unknown when the window has run out: failed "source transaction not found", saying nothing left the wallet', async () => {
    await s.run(id);
    jest.setSystemTime(NOW + SETTINGS.NOT_FOUND_WINDOW_MS);

    await expect(s.run(id)).resolves.toEqual({ done: true });

    const row = s.store.get(id);
    expect({ status: row.status, failedAtStep: row.failedAtStep, userMessage: row.userMessage, wakeAt: row.wakeAt }).toEqual({
      status: 'failed',
      failedAtStep: 'pending',
      userMessage: NOT_FOUND,
      wakeAt: null,
    });
    expect((row.history as { status: string; detail: string; at: string }[]).at(-1)).toEqual({
      status: 'failed',
      detail: 'source transaction not found',
      at: '2025-11-22T13:00:00.000Z',
    });
    expect(s.chains.relay.submits).toEqual([]);
  });

  it('mined within the window: found, relaying, the window forgotten', async () => {
    await s.run(id);
    jest.setSystemTime(NOW + 4 * MINUTE);
    s.chains.access.mine(SPOKE.key, tx('never broadcast'), spokeDeposit(spokeIntent()));

    await s.run(id);

    expect(state()).toMatchObject({ status: 'relaying', notFoundSince: null, processingAttempts: 0 });
  });

  it('an RPC error before anything was learnt starts no window: attempts grow, retried with back-off (0.5 s, then 1 s)', async () => {
    s.chains.access.down = true;

    await expect(s.run(id)).resolves.toEqual({ done: true });
    expect(state()).toEqual({
      status: 'pending',
      notFoundSince: null,
      wakeAt: new Date('2025-11-22T12:50:00.500Z'),
      processingAttempts: 1,
    });

    jest.setSystemTime(NOW + 1_000);
    await s.run(id);
    expect(state()).toEqual({
      status: 'pending',
      notFoundSince: null,
      wakeAt: new Date('2025-11-22T12:50:02.000Z'),
      processingAttempts: 2,
    });
  });

  it('RPC errors within the window never fail the swap, even when they outlast it', async () => {
    await s.run(id);
    s.chains.access.down = true;

    for (const minutes of [5, 10, 15, 30]) {
      jest.setSystemTime(NOW + minutes * MINUTE);
      await s.run(id);
    }

    expect(state()).toMatchObject({ status: 'pending', notFoundSince: new Date('2025-11-22T12:50:00.000Z'), processingAttempts: 4 });
    expect(s.store.get(id).userMessage).toBeNull();
    expect(s.store.statuses(id)).toEqual(['pending']);
  });

  it('the RPC back after an outage that started before the first answer: the window starts then, not at submit', async () => {
    s.chains.access.down = true;
    await s.run(id);
    jest.setSystemTime(NOW + 11 * MINUTE);
    s.chains.access.down = false;

    await s.run(id);

    expect(state()).toEqual({
      status: 'pending',
      notFoundSince: new Date('2025-11-22T13:01:00.000Z'),
      wakeAt: new Date('2025-11-22T13:01:30.000Z'),
      processingAttempts: 1,
    });
  });
});
