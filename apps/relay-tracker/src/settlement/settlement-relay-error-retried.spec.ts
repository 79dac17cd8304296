import { AppError, ErrorCode, Subjects } from '@swap/contracts';
import {
  events,
  payloadOf,
  settlement,
  SETTINGS,
  SPOKE,
  spokeDeposit,
  spokeIntent,
  tx,
  HUB_WALLET,
  type Settlement,
} from './settlement.doubles';

/**
 * What is handed on fails: the solver marketplace (over the bus) or the relay API. Only the
 * marketplace refusing the intent for good fails a swap; anything transient leaves it where
 * it is, its attempts growing, retried with back-off (0.5 s, 1 s, 2 s … up to a minute).
 */
describe('settlement: a relay or marketplace error is retried', () => {
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

  const handingOver = () => {
    s.store.index.push(events.created(intent, CREATED));
    return s.store.submitted(intent, { txHash: SOURCE, srcChainKey: SPOKE.key, status: 'posting_execution', hubTxHash: CREATED }).id;
  };
  const state = (id: string) => {
    const row = s.store.get(id);
    return { status: row.status, processingAttempts: row.processingAttempts, wakeAt: row.wakeAt, userMessage: row.userMessage };
  };

  describe('the solver marketplace', () => {
    it('unreachable (503): stays posting_execution, one attempt counted, tried again in 0.5 s', async () => {
      const id = handingOver();
      s.marketplace.refusal = new AppError(503, ErrorCode.DependencyUnavailable, 'An internal service is unavailable; retry later');

      await expect(s.run(id)).resolves.toEqual({ done: true });

      expect(state(id)).toEqual({
        status: 'posting_execution',
        processingAttempts: 1,
        wakeAt: new Date('2025-11-22T12:50:00.500Z'),
        userMessage: null,
      });
      expect(s.marketplace.requests).toEqual([{ subject: Subjects.intentExecute, payload: { intent_tx_hash: CREATED } }]);
    });

    it('unreachable again: the back-off doubles; back: posted, attempts reset, posting_execution entered once', async () => {
      const id = handingOver();
      s.marketplace.refusal = new AppError(504, ErrorCode.DependencyTimeout, 'An internal service did not answer in time; retry later');
      await s.run(id);
      jest.setSystemTime(NOW + 500);
      await s.run(id);
      expect(state(id)).toMatchObject({ status: 'posting_execution', processingAttempts: 2, wakeAt: new Date('2025-11-22T12:50:01.500Z') });

      s.marketplace.refusal = undefined;
      jest.setSystemTime(NOW + 1_500);
      await s.run(id);

      expect(state(id)).toMatchObject({ status: 'posted_execution', processingAttempts: 0 });
      expect(s.store.statuses(id)).toEqual(['pending', 'relaying', 'relayed', 'posting_execution', 'posted_execution']);
      expect(s.marketplace.requests).toHaveLength(3);
    });

    it('not knowing the hub transaction yet (404 INTENT_NOT_FOUND) is transient too', async () => {
      const id = handingOver();
      s.marketplace.refusal = new AppError(404, ErrorCode.IntentNotFound, `The hub knows no transaction ${CREATED} (not mined yet?)`);

      await s.run(id);

      expect(state(id)).toMatchObject({ status: 'posting_execution', processingAttempts: 1, userMessage: null });
    });

    it('a refusal (4xx): failed "the solver marketplace refused the intent", its reason and the cancel in the message, the cancel watched', async () => {
      const id = handingOver();
      s.marketplace.refusal = new AppError(409, ErrorCode.QuoteMismatch, 'The intent swaps other tokens than quote q_1');

      await expect(s.run(id)).resolves.toEqual({ done: true });

      const row = s.store.get(id);
      expect({ ...state(id), failedAtStep: row.failedAtStep }).toEqual({
        status: 'failed',
        processingAttempts: 0,
        // Its intent is open on the hub: watched for the cancel the message suggests, ten fallback periods on.
        wakeAt: new Date('2025-11-22T12:55:00.000Z'),
        userMessage:
          "The solver marketplace refused this swap: The intent swaps other tokens than quote q_1. Your input is held for you on the hub and can be recovered with a cancel: POST /v1/swaps/intents/cancel with this swap's intent.",
        failedAtStep: 'posting_execution',
      });
      expect(s.store.announced).toEqual([
        {
          txHash: SOURCE,
          from: 'posting_execution',
          status: 'failed',
          detail: 'the solver marketplace refused the intent',
          terminal: true,
        },
      ]);
    });
  });

  describe('the relay API', () => {
    const confirmedDeposit = () => {
      s.chains.access.mine(SPOKE.key, SOURCE, spokeDeposit(intent));
      s.store.index.push(events.activity(SPOKE.key, SOURCE));
      return s.store.submitted(intent, { txHash: SOURCE, srcChainKey: SPOKE.key }).id;
    };
    const handedOver = { chainId: SPOKE.relayChainId, txHash: SOURCE, data: { address: HUB_WALLET, payload: payloadOf(intent) } };

    it('its submit failing for a confirmed spoke deposit: relaying all the same, nothing counted as a failed attempt', async () => {
      const id = confirmedDeposit();
      s.chains.relay.down = true;

      await expect(s.run(id)).resolves.toEqual({ done: true });

      expect(state(id)).toEqual({
        status: 'relaying',
        processingAttempts: 0,
        wakeAt: new Date('2025-11-22T12:50:30.000Z'),
        userMessage: null,
      });
      expect(s.chains.relay.submits).toEqual([handedOver]);
    });

    it('the relay is reminded a fallback period later while the hub has not seen the intent, with the same payload', async () => {
      const id = confirmedDeposit();
      s.chains.relay.down = true;
      await s.run(id);

      s.chains.relay.down = false;
      jest.setSystemTime(NOW + SETTINGS.FALLBACK_CHECK_MS - 1);
      await s.run(id);
      expect(s.chains.relay.submits).toHaveLength(1);

      jest.setSystemTime(NOW + SETTINGS.FALLBACK_CHECK_MS);
      await s.run(id);

      expect(s.chains.relay.submits).toEqual([handedOver, handedOver]);
      expect(state(id)).toMatchObject({ status: 'relaying', wakeAt: new Date('2025-11-22T12:51:00.000Z') });
    });

    it('once the hub follower sees the intent created, the relay is not reminded again', async () => {
      const id = confirmedDeposit();
      await s.run(id);
      jest.setSystemTime(NOW + 2 * SETTINGS.FALLBACK_CHECK_MS);
      s.store.record(events.created(intent, CREATED));

      await s.run(id);

      expect(s.store.get(id)).toMatchObject({ status: 'posted_execution', hubTxHash: CREATED });
      expect(s.chains.relay.submits).toEqual([handedOver]);
    });
  });
});
