import { AppError, Subjects } from '@swap/contracts';
import { FakeServices } from '../testing/gateway-doubles';
import { HubClock } from './hub-clock';

/*
 * The hub clock swap-gateway keeps for a second: quote-builder (a subscriber on an
 * in-process bus) answers the hub's latest block time; jest's fake clock moves Date.now.
 * The bus's own hops (setImmediate) run for real.
 */

describe('HubClock', () => {
  let services: FakeServices;
  let clock: HubClock;
  /** What the fake quote-builder answers as the hub's time (offset 0), and whether it fails. */
  let hubTime: bigint;
  let failing: boolean;

  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2025-11-22T12:00:00.000Z'), doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    hubTime = 1_763_812_800n;
    failing = false;
    services = new FakeServices().answer(Subjects.deadline, ({ offsetSeconds }) => {
      if (failing) throw new AppError(503, 'CHAIN_UNAVAILABLE', '0x92.sonic could not be read; retry later');
      return { deadline: (hubTime + BigInt(offsetSeconds)).toString() };
    });
    clock = new HubClock(services.messaging);
  });

  afterEach(async () => {
    await services.close();
    jest.useRealTimers();
  });

  it('adds the offset to the hub time quote-builder reads, asking it for the time itself (offset 0)', async () => {
    expect(await clock.deadline(300)).toEqual({ deadline: '1763813100' });
    expect(services.payloadsOn(Subjects.deadline)).toEqual([{ offsetSeconds: 0 }]);
  });

  it('reuses the time for a second, then reads it again', async () => {
    await clock.deadline(300);
    hubTime = 1_763_812_801n;
    jest.advanceTimersByTime(999);
    expect(await clock.deadline(60)).toEqual({ deadline: '1763812860' });
    jest.advanceTimersByTime(1);
    expect(await clock.deadline(60)).toEqual({ deadline: '1763812861' });
    expect(services.payloadsOn(Subjects.deadline)).toHaveLength(2);
  });

  it('shares one request among concurrent reads of a stale time, each with its own offset', async () => {
    const answers = await Promise.all([clock.deadline(1), clock.deadline(300), clock.deadline(604_800)]);
    expect(answers).toEqual([{ deadline: '1763812801' }, { deadline: '1763813100' }, { deadline: '1764417600' }]);
    expect(services.payloadsOn(Subjects.deadline)).toHaveLength(1);
  });

  it('keeps no failed read: the error reaches the caller, and the next read asks again', async () => {
    failing = true;
    const error = (await clock.deadline(300).catch((e: unknown) => e)) as AppError;
    expect(error.toBody()).toEqual({ statusCode: 503, code: 'CHAIN_UNAVAILABLE', message: '0x92.sonic could not be read; retry later' });
    failing = false;
    expect(await clock.deadline(300)).toEqual({ deadline: '1763813100' });
    expect(services.payloadsOn(Subjects.deadline)).toHaveLength(2);
  });
});
