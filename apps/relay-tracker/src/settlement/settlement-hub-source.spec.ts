import { encodeCancelIntent } from '@swap/chains';
import { Subjects } from '@swap/contracts';
import { events, HUB, hubCreate, hubIntent, settlement, tx, USER, type Settlement } from './settlement.doubles';

/**
 * A swap whose source is the hub itself (createIntent sent there): no relay, so pending
 * moves through relaying and relayed to posting_execution in one write, read from the hub
 * index (or, before the follower has read it, from the chain).
 */
describe('settlement: a hub source', () => {
  const NOW = Date.parse('2025-11-22T12:50:00.000Z');
  const SOURCE = tx('createIntent on the hub');
  const intent = hubIntent();
  let s: Settlement;

  beforeEach(() => {
    jest.useFakeTimers({ now: NOW });
    s = settlement();
    s.store.hubTime = new Date(NOW - 1_000);
  });

  afterEach(() => jest.useRealTimers());

  it('IntentCreated in the hub index: relaying, relayed and posting_execution in one write, then posted; no chain read', async () => {
    s.store.index.push(events.created(intent, SOURCE));
    const { id } = s.store.submitted(intent, { txHash: SOURCE, srcChainKey: HUB.key });

    await expect(s.run(id)).resolves.toEqual({ done: true });

    expect(s.store.announced).toEqual([
      { txHash: SOURCE, from: 'pending', status: 'relaying', detail: 'source transaction confirmed in block 100', terminal: false },
      {
        txHash: SOURCE,
        from: 'relaying',
        status: 'relayed',
        detail: 'a hub source: the intent is on the hub, no relay needed',
        terminal: false,
      },
      { txHash: SOURCE, from: 'relayed', status: 'posting_execution', detail: 'handing the intent to the solvers', terminal: false },
      {
        txHash: SOURCE,
        from: 'posting_execution',
        status: 'posted_execution',
        detail: 'posted to the solver marketplace',
        terminal: false,
      },
    ]);
    expect(s.store.get(id)).toMatchObject({ status: 'posted_execution', verified: true, hubTxHash: SOURCE, processingAttempts: 0 });
    expect(s.chains.access.reads).toEqual([]);
    expect(s.chains.relay.submits).toEqual([]);
    expect(s.marketplace.requests).toEqual([{ subject: Subjects.intentExecute, payload: { intent_tx_hash: SOURCE } }]);
  });

  it('not in the index yet but mined: one receipt read, the same moves', async () => {
    s.chains.access.mine(HUB.key, SOURCE, hubCreate(intent));
    const { id } = s.store.submitted(intent, { txHash: SOURCE, srcChainKey: HUB.key });

    await s.run(id);

    expect(s.chains.access.reads).toEqual([{ chain: HUB.key, read: 'minedTransaction', txHash: SOURCE }]);
    expect(s.store.statuses(id)).toEqual(['pending', 'relaying', 'relayed', 'posting_execution', 'posted_execution']);
    expect((s.store.get(id).history as { detail: string }[])[1].detail).toBe('source transaction confirmed in block 9000');
    expect(s.store.get(id)).toMatchObject({ walletAddress: USER, hubTxHash: SOURCE });
  });

  it('a hub transaction that is not createIntent: failed "not a swap transaction", nothing posted', async () => {
    s.chains.access.mine(HUB.key, SOURCE, { ...hubCreate(intent), input: encodeCancelIntent(intent), logs: [] });
    const { id } = s.store.submitted(intent, { txHash: SOURCE, srcChainKey: HUB.key });

    await s.run(id);

    const row = s.store.get(id);
    expect({ status: row.status, failedAtStep: row.failedAtStep, userMessage: row.userMessage, wakeAt: row.wakeAt }).toEqual({
      status: 'failed',
      failedAtStep: 'pending',
      userMessage:
        'This transaction on 0x92.sonic is not a swap the platform built: it did not go to the swap contract with an intent. Nothing was swapped.',
      wakeAt: null,
    });
    expect((row.history as { detail: string }[]).at(-1)!.detail).toBe('not a swap transaction');
    expect(s.marketplace.requests).toEqual([]);
  });
});
