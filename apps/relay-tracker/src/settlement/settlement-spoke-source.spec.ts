import { Subjects } from '@swap/contracts';
import {
  events,
  HUB,
  HUB_WALLET,
  payloadOf,
  settlement,
  SPOKE,
  spokeDeposit,
  spokeIntent,
  tx,
  USER,
  type Settlement,
} from './settlement.doubles';

/**
 * A swap whose source is a spoke deposit: the spoke follower's activity wakes it, one
 * transaction read confirms it (relaying, handed to the relay), and the hub follower's
 * IntentCreated moves it on to the solvers. What the submit claimed is checked against the
 * chain, and the chain wins.
 */
describe('settlement: a spoke source', () => {
  const NOW = Date.parse('2025-11-22T12:50:00.000Z');
  const SOURCE = tx('deposit on the spoke');
  const CREATED = tx('intent created on the hub');
  const intent = spokeIntent();
  let s: Settlement;

  beforeEach(() => {
    jest.useFakeTimers({ now: NOW });
    s = settlement();
    s.chains.access.mine(SPOKE.key, SOURCE, spokeDeposit(intent));
  });

  afterEach(() => jest.useRealTimers());

  const deposited = (claim: { walletAddress?: string } = {}) => {
    s.store.index.push(events.activity(SPOKE.key, SOURCE));
    return s.store.submitted(intent, { txHash: SOURCE, srcChainKey: SPOKE.key, ...claim }).id;
  };

  it('the deposit in the spoke index: one transaction read, relaying, the relay handed the payload the transaction carried', async () => {
    const id = deposited();

    await expect(s.run(id)).resolves.toEqual({ done: true });

    expect(s.chains.access.reads).toEqual([{ chain: SPOKE.key, read: 'transaction', txHash: SOURCE }]);
    expect(s.store.get(id)).toMatchObject({
      status: 'relaying',
      verified: true,
      walletAddress: USER,
      wakeAt: new Date('2025-11-22T12:50:30.000Z'),
    });
    expect((s.store.get(id).history as { detail: string }[]).at(-1)!.detail).toBe(
      'source transaction confirmed in block 1200; handed to the relay',
    );
    expect(s.chains.relay.submits).toEqual([
      { chainId: SPOKE.relayChainId, txHash: SOURCE, data: { address: HUB_WALLET, payload: payloadOf(intent) } },
    ]);
    expect(s.claims.rejected).toEqual([]);
  });

  it("the hub follower's IntentCreated: relayed and posting_execution in one write, then posted; the intent's hash is the hub event's", async () => {
    const id = deposited();
    await s.run(id);
    const created = events.created(intent, CREATED);
    jest.setSystemTime(NOW + 8_000);
    s.store.record(created);

    await s.run(id);

    expect(s.store.statuses(id)).toEqual(['pending', 'relaying', 'relayed', 'posting_execution', 'posted_execution']);
    expect(s.store.announced.slice(1).map((a) => [a.status, a.detail])).toEqual([
      ['relayed', `delivered to the hub in ${CREATED}`],
      ['posting_execution', 'handing the intent to the solvers'],
      ['posted_execution', 'posted to the solver marketplace'],
    ]);
    expect(s.store.get(id)).toMatchObject({ hubTxHash: CREATED, intentHash: created.intentHash });
    expect(s.marketplace.requests).toEqual([{ subject: Subjects.intentExecute, payload: { intent_tx_hash: CREATED } }]);
    expect(s.chains.access.reads).toHaveLength(1);
  });

  it('a submit claiming another wallet: kept as a rejected claim, the swap takes the sender from the chain', async () => {
    const id = deposited({ walletAddress: '0x1111111111111111111111111111111111111111' });

    await s.run(id);

    expect(s.claims.rejected).toEqual([
      expect.objectContaining({
        submissionId: id,
        walletAddress: '0x1111111111111111111111111111111111111111',
        reason: 'a different sender',
      }),
    ]);
    expect(s.store.get(id)).toMatchObject({ status: 'relaying', walletAddress: USER });
  });

  it('the hub received the deposit but could not open the intent: failed at relaying, the deposit waiting in the hub wallet', async () => {
    const id = deposited();
    await s.run(id);
    s.store.index.push(events.sent(SPOKE.key, SOURCE, HUB.relayChainId, '3'));
    s.store.index.push(events.received(HUB.key, tx('hub delivery'), SPOKE.relayChainId, '3', { ok: false }));

    await s.run(id);

    const row = s.store.get(id);
    expect({
      status: row.status,
      failedAtStep: row.failedAtStep,
      userMessage: row.userMessage,
      hubTxHash: row.hubTxHash,
      wakeAt: row.wakeAt,
    }).toEqual({
      status: 'failed',
      failedAtStep: 'relaying',
      userMessage:
        'Your deposit reached the hub, but the swap could not be opened there (its deadline may have passed on the way). The deposit waits in your wallet on the hub.',
      hubTxHash: tx('hub delivery'),
      wakeAt: null,
    });
    expect(s.marketplace.requests).toEqual([]);
  });
});
