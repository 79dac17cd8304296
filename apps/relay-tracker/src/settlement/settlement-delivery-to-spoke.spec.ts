import type { RelayPacket } from '@swap/chains';
import type { Intent } from '@swap/contracts';
import { events, HUB, hubIntent, settlement, SETTINGS, SPOKE, tx, UNFOLLOWED, type Settlement } from './settlement.doubles';

/**
 * A swap filled on the hub whose output goes to a spoke: solved once the output is
 * delivered there, as the destination's follower sees it (the hub's message for the fill,
 * received on the spoke under the same connection sequence number) or, for a chain no
 * follower reads, as the relay's packets say.
 */
describe('settlement: the delivery to a spoke', () => {
  const NOW = Date.parse('2025-11-22T12:55:00.000Z');
  const CREATED = tx('createIntent on the hub');
  const FILL = tx('fill');
  const DELIVERY = tx('delivery on the spoke');
  let s: Settlement;

  beforeEach(() => {
    jest.useFakeTimers({ now: NOW });
    s = settlement();
    s.store.hubTime = new Date(NOW - 1_000);
  });

  afterEach(() => jest.useRealTimers());

  /** A hub-source swap posted to the solvers and filled in FILL, whose message to `dst` is the hub connection's number 7. */
  const filled = (intent: Intent) => {
    s.store.index.push(events.created(intent, CREATED), events.filled(intent, FILL), events.sent(HUB.key, FILL, intent.dstChain, '7'));
    return s.store.submitted(intent, { txHash: CREATED, srcChainKey: HUB.key, status: 'posted_execution', hubTxHash: CREATED }).id;
  };
  const state = (id: string) => {
    const row = s.store.get(id);
    return { status: row.status, fillTxHash: row.fillTxHash, deliveryTxHash: row.deliveryTxHash, wakeAt: row.wakeAt };
  };
  const packet = (over: Partial<RelayPacket>): RelayPacket => ({
    src_chain_id: HUB.relayChainId,
    src_tx_hash: FILL,
    src_address: '0x0',
    status: 'executed',
    dst_chain_id: UNFOLLOWED.relayChainId,
    conn_sn: '7',
    dst_address: '0x0',
    dst_tx_hash: '',
    signatures: [],
    payload: '0x',
    ...over,
  });

  describe('to a followed spoke', () => {
    it('filled on the hub: the fill stored, the relay asked to carry it, waiting for the delivery', async () => {
      const id = filled(hubIntent());

      await expect(s.run(id)).resolves.toEqual({ done: true });

      expect(state(id)).toEqual({
        status: 'posted_execution',
        fillTxHash: FILL,
        deliveryTxHash: null,
        wakeAt: new Date('2025-11-22T12:55:30.000Z'),
      });
      expect(s.chains.relay.submits).toEqual([{ chainId: HUB.relayChainId, txHash: FILL }]);
      expect(s.store.announced).toEqual([]);
    });

    it('looked at again before the delivery: the relay is not asked twice', async () => {
      const id = filled(hubIntent());
      await s.run(id);
      jest.setSystemTime(NOW + 10_000);

      await s.run(id);

      expect(s.chains.relay.submits).toHaveLength(1);
      expect(s.chains.relay.packetReads).toEqual([]);
      expect(state(id)).toMatchObject({ status: 'posted_execution' });
    });

    it("the destination's follower sees the fill's message received: solved with the delivery transaction", async () => {
      const id = filled(hubIntent());
      await s.run(id);
      jest.setSystemTime(NOW + 4_000);
      s.store.record(events.received(SPOKE.key, DELIVERY, HUB.relayChainId, '7'));
      expect(s.store.get(id).eventSeq).toBe(1);

      await expect(s.run(id)).resolves.toEqual({ done: true });

      expect(state(id)).toEqual({ status: 'solved', fillTxHash: FILL, deliveryTxHash: DELIVERY, wakeAt: null });
      expect(s.store.announced).toEqual([
        {
          txHash: CREATED,
          from: 'posted_execution',
          status: 'solved',
          detail: `filled in ${FILL}; delivered on ${SPOKE.key} in ${DELIVERY}`,
          terminal: true,
        },
      ]);
      expect(s.chains.relay.submits).toHaveLength(1);
    });

    it('another message delivered on the spoke (another number) does not solve it', async () => {
      const id = filled(hubIntent());
      await s.run(id);
      s.store.record(events.received(SPOKE.key, tx('someone else'), HUB.relayChainId, '8'));

      await s.run(id);

      expect(state(id)).toMatchObject({ status: 'posted_execution', deliveryTxHash: null });
    });

    it("the follower silent for a fallback period: the relay's executed packet solves it", async () => {
      const id = filled(hubIntent());
      await s.run(id);
      s.chains.relay.packets.set(FILL, [packet({ dst_chain_id: SPOKE.relayChainId, dst_tx_hash: DELIVERY })]);
      jest.setSystemTime(NOW + SETTINGS.FALLBACK_CHECK_MS);

      await s.run(id);

      expect(s.chains.relay.packetReads).toEqual([{ chainId: HUB.relayChainId, txHash: FILL }]);
      expect(state(id)).toEqual({ status: 'solved', fillTxHash: FILL, deliveryTxHash: DELIVERY, wakeAt: null });
    });

    it("the relay's submit of the fill failing: the fill is kept, nothing counted as a failed attempt", async () => {
      const id = filled(hubIntent());
      s.chains.relay.down = true;

      await s.run(id);

      expect(state(id)).toMatchObject({ status: 'posted_execution', fillTxHash: FILL });
      expect(s.store.get(id).processingAttempts).toBe(0);
    });
  });

  describe('to a spoke no follower reads', () => {
    const toBase = () => hubIntent({ dstChain: UNFOLLOWED.relayChainId });

    it("the relay's packets are asked at once; still executing: looked at again after STEP_POLL_MS", async () => {
      const id = filled(toBase());
      s.chains.relay.packets.set(FILL, [packet({ status: 'executing' })]);

      await s.run(id);

      expect(s.chains.relay.submits).toEqual([{ chainId: HUB.relayChainId, txHash: FILL }]);
      expect(s.chains.relay.packetReads).toEqual([{ chainId: HUB.relayChainId, txHash: FILL }]);
      expect(state(id)).toEqual({
        status: 'posted_execution',
        fillTxHash: FILL,
        deliveryTxHash: null,
        wakeAt: new Date('2025-11-22T12:55:00.500Z'),
      });
    });

    it("the relay's executed packet to the destination solves it, its hash in lower case", async () => {
      const id = filled(toBase());
      s.chains.relay.packets.set(FILL, [packet({ status: 'executing' })]);
      await s.run(id);
      const delivered = '0xABCDEF0000000000000000000000000000000000000000000000000000000001';
      s.chains.relay.packets.set(FILL, [
        packet({ dst_chain_id: SPOKE.relayChainId, dst_tx_hash: tx('elsewhere') }),
        packet({ dst_tx_hash: delivered }),
      ]);
      jest.setSystemTime(NOW + SETTINGS.STEP_POLL_MS);

      await s.run(id);

      expect(state(id)).toEqual({ status: 'solved', fillTxHash: FILL, deliveryTxHash: delivered.toLowerCase(), wakeAt: null });
      expect((s.store.get(id).history as { detail: string }[]).at(-1)!.detail).toBe(
        `filled in ${FILL}; delivered on ${UNFOLLOWED.key} in ${delivered.toLowerCase()}`,
      );
      expect(s.chains.relay.submits).toHaveLength(1);
    });
  });
});
