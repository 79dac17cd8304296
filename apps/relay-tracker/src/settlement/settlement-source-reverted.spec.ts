import { HUB, hubCreate, hubIntent, settlement, SPOKE, spokeDeposit, spokeIntent, tx, type Settlement } from './settlement.doubles';

/** A source transaction that was mined and reverted: nothing was deposited, the swap fails at once and for good. */
describe('settlement: the source transaction reverted', () => {
  const NOW = Date.parse('2025-11-22T12:50:00.000Z');
  let s: Settlement;

  beforeEach(() => {
    jest.useFakeTimers({ now: NOW });
    s = settlement();
  });

  afterEach(() => jest.useRealTimers());

  it('a spoke deposit that reverted fails at pending, saying nothing was deposited', async () => {
    const intent = spokeIntent();
    const swap = s.store.submitted(intent, { txHash: tx('reverted deposit'), srcChainKey: SPOKE.key });
    s.chains.access.mine(SPOKE.key, swap.txHash, spokeDeposit(intent, { status: 'reverted' }));

    await expect(s.run(swap.id)).resolves.toEqual({ done: true });

    const row = s.store.get(swap.id);
    expect({ status: row.status, failedAtStep: row.failedAtStep, userMessage: row.userMessage, wakeAt: row.wakeAt }).toEqual({
      status: 'failed',
      failedAtStep: 'pending',
      userMessage: 'Your transaction on 0xa4b1.arbitrum failed (it reverted), so nothing was deposited and no swap was opened.',
      wakeAt: null,
    });
    expect(row.history).toEqual([
      { status: 'pending', at: '2025-11-22T12:50:00.000Z', detail: 'submitted' },
      { status: 'failed', at: '2025-11-22T12:50:00.000Z', detail: 'source transaction reverted' },
    ]);
    expect(s.store.announced).toEqual([
      { txHash: swap.txHash, from: 'pending', status: 'failed', detail: 'source transaction reverted', terminal: true },
    ]);
  });

  it('nothing is handed on: no relay submit, no marketplace request, one chain read', async () => {
    const intent = spokeIntent();
    const swap = s.store.submitted(intent, { txHash: tx('reverted deposit'), srcChainKey: SPOKE.key });
    s.chains.access.mine(SPOKE.key, swap.txHash, spokeDeposit(intent, { status: 'reverted' }));

    await s.run(swap.id);

    expect(s.chains.relay.submits).toEqual([]);
    expect(s.marketplace.requests).toEqual([]);
    expect(s.chains.access.reads).toEqual([{ chain: SPOKE.key, read: 'minedTransaction', txHash: swap.txHash }]);
  });

  it('a createIntent on the hub that reverted fails the same way, naming the hub', async () => {
    const intent = hubIntent();
    const swap = s.store.submitted(intent, { txHash: tx('reverted create'), srcChainKey: HUB.key });
    s.chains.access.mine(HUB.key, swap.txHash, hubCreate(intent, { status: 'reverted' }));

    await s.run(swap.id);

    const row = s.store.get(swap.id);
    expect({ status: row.status, failedAtStep: row.failedAtStep, userMessage: row.userMessage, verified: row.verified }).toEqual({
      status: 'failed',
      failedAtStep: 'pending',
      userMessage: 'Your transaction on 0x92.sonic failed (it reverted), so nothing was deposited and no swap was opened.',
      verified: false,
    });
    expect(s.marketplace.requests).toEqual([]);
  });

  it('looked at again later, the failed swap stays as it is and reads nothing', async () => {
    const intent = spokeIntent();
    const swap = s.store.submitted(intent, { txHash: tx('reverted deposit'), srcChainKey: SPOKE.key });
    s.chains.access.mine(SPOKE.key, swap.txHash, spokeDeposit(intent, { status: 'reverted' }));
    await s.run(swap.id);
    const failed = s.store.get(swap.id);

    jest.setSystemTime(NOW + 60_000);
    await expect(s.run(swap.id)).resolves.toEqual({ done: true });

    const again = s.store.get(swap.id);
    expect({ status: again.status, version: again.version, wakeAt: again.wakeAt }).toEqual({
      status: 'failed',
      version: failed.version,
      wakeAt: null,
    });
    expect(s.store.statuses(swap.id)).toEqual(['pending', 'failed']);
    expect(s.chains.access.reads).toHaveLength(1);
  });
});
