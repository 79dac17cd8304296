import { Subjects } from '@swap/contracts';
import { events, settlement, SPOKE, spokeDeposit, spokeIntent, tx, type Settlement } from './settlement.doubles';

/**
 * Two replicas, or a replica and an event, on the same swap: every write is a
 * compare-and-set on the status the step read, and a park also on `event_seq`, so a step
 * that lost a race reads the swap again and nothing happens twice.
 */
describe('settlement: a lost compare-and-set', () => {
  const NOW = Date.parse('2025-11-22T12:50:00.000Z');
  const SOURCE = tx('deposit');
  const CREATED = tx('intent created on the hub');
  const intent = spokeIntent();
  let s: Settlement;

  beforeEach(() => {
    jest.useFakeTimers({ now: NOW });
    s = settlement();
  });

  afterEach(() => jest.useRealTimers());

  /** Runs the other replica's whole turn on the swap just before this replica's next write of that kind. */
  const otherReplicaBefore = (write: 'transition' | 'park', id: string) =>
    s.store.beforeNext(write, () => s.replica().process({ id, attempt: 2 }));

  it('moved on by another replica between the read and the write: read again, relaying entered once, the relay asked once', async () => {
    s.chains.access.mine(SPOKE.key, SOURCE, spokeDeposit(intent));
    s.store.index.push(events.activity(SPOKE.key, SOURCE));
    const { id } = s.store.submitted(intent, { txHash: SOURCE, srcChainKey: SPOKE.key });
    otherReplicaBefore('transition', id);

    await expect(s.run(id)).resolves.toEqual({ done: true });

    expect(s.store.statuses(id)).toEqual(['pending', 'relaying']);
    expect(s.store.announced.map((a) => `${a.from} → ${a.status}`)).toEqual(['pending → relaying']);
    expect(s.chains.relay.submits.map((r) => r.txHash)).toEqual([SOURCE]);
    expect(s.store.get(id)).toMatchObject({ status: 'relaying', wakeAt: new Date('2025-11-22T12:50:30.000Z') });
  });

  it('solved by another replica first: this one finds it solved and writes nothing more', async () => {
    s.store.index.push(events.created(intent, CREATED), events.filled(intent, tx('fill')));
    s.store.hubTime = new Date(NOW);
    const { id } = s.store.submitted(intent, { txHash: SOURCE, srcChainKey: SPOKE.key, status: 'posted_execution', hubTxHash: CREATED });
    otherReplicaBefore('transition', id);

    await s.run(id);

    expect(s.store.statuses(id)).toEqual(['pending', 'relaying', 'relayed', 'posting_execution', 'posted_execution', 'solved']);
    expect(s.store.announced).toEqual([
      { txHash: SOURCE, from: 'posted_execution', status: 'solved', detail: `filled in ${tx('fill')}`, terminal: true },
    ]);
    expect(s.store.get(id)).toMatchObject({ status: 'solved', fillTxHash: tx('fill'), wakeAt: null });
  });

  it('posted by another replica while this one waited on the marketplace: posted_execution entered once', async () => {
    s.store.index.push(events.created(intent, CREATED));
    const { id } = s.store.submitted(intent, { txHash: SOURCE, srcChainKey: SPOKE.key, status: 'posting_execution', hubTxHash: CREATED });
    otherReplicaBefore('transition', id);

    await s.run(id);

    expect(s.store.statuses(id)).toEqual(['pending', 'relaying', 'relayed', 'posting_execution', 'posted_execution']);
    expect(s.store.announced.map((a) => a.status)).toEqual(['posted_execution']);
  });

  it('an event arriving while a step looks (before it parks) makes it look again instead of parking', async () => {
    const { id } = s.store.submitted(intent, { txHash: SOURCE, srcChainKey: SPOKE.key, status: 'relaying', verified: true });
    // The hub follower commits IntentCreated after the step read the swap and found nothing.
    s.store.beforeNext('park', async () => s.store.record(events.created(intent, CREATED)));

    await expect(s.run(id)).resolves.toEqual({ done: true });

    expect(s.store.statuses(id)).toEqual(['pending', 'relaying', 'relayed', 'posting_execution', 'posted_execution']);
    expect(s.marketplace.requests).toEqual([{ subject: Subjects.intentExecute, payload: { intent_tx_hash: CREATED } }]);
    expect(s.store.get(id)).toMatchObject({ hubTxHash: CREATED, wakeAt: new Date('2025-11-22T12:50:30.000Z') });
  });

  it('with nothing new, the step parks: the swap keeps the time it set', async () => {
    const { id } = s.store.submitted(intent, {
      txHash: SOURCE,
      srcChainKey: SPOKE.key,
      status: 'relaying',
      verified: true,
      wakeAt: new Date(NOW),
    });

    await s.run(id);

    expect(s.store.get(id)).toMatchObject({ status: 'relaying', eventSeq: 0, wakeAt: new Date('2025-11-22T12:50:30.000Z') });
  });

  it('an event arriving while the not-found check asks the chain makes it look again', async () => {
    const { id } = s.store.submitted(intent, { txHash: SOURCE, srcChainKey: SPOKE.key });
    // The chain answers "unknown"; before the step writes, the deposit is mined and the spoke follower indexes it.
    s.chains.access.afterNextRead = async () => {
      s.chains.access.mine(SPOKE.key, SOURCE, spokeDeposit(intent));
      s.store.record(events.activity(SPOKE.key, SOURCE));
    };

    await s.run(id);

    expect(s.store.get(id)).toMatchObject({ status: 'relaying' });
  });
});
