import { generateSigningKeyPair, parseSigningKey, PayloadSigner } from '@swap/messaging';
import { MemoryCache } from '@swap/cache';
import { MAX_KEY_SET_EPOCH, type KeySetHead } from '@swap/contracts';
import { createLogger } from '@swap/observability';
import { eventually, LogCapture, uniqueId } from '@swap/testing';
import { PUBLISHED_MARK_KEY } from './published-mark';
import { refusal, RegistryHarness, type Replica } from '../testing/registry-harness';
import { RESTORE_DETECTED_ACTOR } from './key-set-publisher';

const ACTOR = 'operator:alice';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
/** The clock where a test pins it: 1_900_000_000 UNIX seconds and a half (2030-03-17). */
const NOW_MS = 1_900_000_000_500;
const NOW_S = 1_900_000_000;
/** Where every test starts: epoch 1, version 7 (a database that has seen six changes). */
const START: KeySetHead = { epoch: 1, version: 7 };
/** The modes of a freshly migrated database; nothing in this file moves them. */
const MODES = { swaps: 'off', 'leverage-yield': 'off' };

/** A cache that cannot be reached: every read throws. */
class UnreachableCache extends MemoryCache {
  override async get(): Promise<string | undefined> {
    throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
  }
}

/**
 * The epoch of the key set and the restore check. The key set's state is one row of the
 * database, so every test sets it (epoch 1, version 7) and empties the audit log first,
 * and reads its own events only: the tests pass in any order.
 */
describe('KeySetPublisher: epochs and the restore check (against PostgreSQL)', () => {
  let h: RegistryHarness;
  let since: number;

  beforeAll(async () => {
    h = await RegistryHarness.start();
  });
  afterAll(() => h?.stop());

  beforeEach(async () => {
    await h.sql('UPDATE key_registry.keyset_state SET epoch = $1, version = $2 WHERE id = 1', [START.epoch, START.version]);
    await h.sql('TRUNCATE key_registry.audit_log');
    since = h.events.count();
  });
  afterEach(() => jest.restoreAllMocks());

  const arrange = (at: KeySetHead) =>
    h.sql('UPDATE key_registry.keyset_state SET epoch = $1, version = $2 WHERE id = 1', [at.epoch, at.version]);
  const pinClock = () => jest.spyOn(Date, 'now').mockReturnValue(NOW_MS);
  const headOf = async ({ keySet }: Replica): Promise<KeySetHead> => {
    const { epoch, version } = await keySet.state();
    return { epoch, version };
  };
  const epochAudits = async () =>
    (await h.prisma.auditRecord.findMany({ where: { action: 'keyset.epoch' }, orderBy: { id: 'asc' } })).map(
      ({ actor, organisationId, target, details }) => ({ actor, organisationId, target, details }),
    );
  const epochAudit = (actor: string, from: KeySetHead, epoch: number) => ({
    actor,
    organisationId: null,
    target: String(epoch),
    details: { from, to: { epoch, version: 1 } },
  });
  /** A replica whose mark of what it announced is `mark`. */
  const replicaMarked = async (mark: KeySetHead, logs?: LogCapture): Promise<Replica> => {
    const replica = h.replica(logs ? { logger: createLogger({ service: 'key-registry', level: 'warn', destination: logs }) } : {});
    await replica.mark.raise(mark);
    return replica;
  };

  describe('startEpoch', () => {
    it('starts the epoch asked for at version 1: audited, announced with no key changed, the mark raised', async () => {
      const replica = h.replica();

      expect(await replica.keySet.startEpoch(ACTOR, 5)).toEqual({ epoch: 5, version: 1 });

      expect(await headOf(replica)).toEqual({ epoch: 5, version: 1 });
      expect(await h.events.of({ epoch: 5, version: 1 }, since)).toEqual({
        kind: 'portal-keyset.change',
        epoch: 5,
        version: 1,
        extends: 0,
        issuedAt: expect.stringMatching(ISO),
        upserts: [],
        removals: [],
        modes: MODES,
        routeModes: {},
      });
      expect(await epochAudits()).toEqual([epochAudit(ACTOR, START, 5)]);
      await eventually(async () => (await replica.mark.read())?.epoch === 5);
      expect(await replica.mark.read()).toEqual({ epoch: 5, version: 1 });
    });

    it('counts versions from 1 again in the new epoch', async () => {
      const replica = h.replica();
      await replica.keySet.startEpoch(ACTOR, 5);

      await replica.registry.createOrganisation(uniqueId('org'), ACTOR);

      expect(await headOf(replica)).toEqual({ epoch: 5, version: 2 });
      expect(await h.events.of({ epoch: 5, version: 2 }, since)).toMatchObject({ epoch: 5, version: 2, extends: 1 });
    });

    it.each([
      ['the current epoch', 3],
      ['an earlier epoch', 2],
    ])('refuses %s with 409 CONFLICT; nothing changes', async (_case, requested) => {
      await arrange({ epoch: 3, version: 7 });
      const replica = h.replica();

      expect(await refusal(replica.keySet.startEpoch(ACTOR, requested))).toEqual({
        status: 409,
        code: 'CONFLICT',
        message: 'The new epoch must be above the current one (3)',
      });
      expect(await headOf(replica)).toEqual({ epoch: 3, version: 7 });
      expect(await epochAudits()).toEqual([]);
    });

    it('refuses an epoch above MAX_KEY_SET_EPOCH (10^12) with 400; nothing changes', async () => {
      const replica = h.replica();
      expect(MAX_KEY_SET_EPOCH).toBe(1_000_000_000_000);

      expect(await refusal(replica.keySet.startEpoch(ACTOR, 1_000_000_000_001))).toEqual({
        status: 400,
        code: 'BAD_REQUEST',
        message: 'epoch must be at most 1000000000000',
      });
      expect(await headOf(replica)).toEqual(START);
      expect(await epochAudits()).toEqual([]);
    });

    it('accepts MAX_KEY_SET_EPOCH itself; no epoch can follow it', async () => {
      const replica = h.replica();

      expect(await replica.keySet.startEpoch(ACTOR, 1_000_000_000_000)).toEqual({ epoch: 1_000_000_000_000, version: 1 });
      expect(await refusal(replica.keySet.startEpoch(ACTOR))).toEqual({
        status: 400,
        code: 'BAD_REQUEST',
        message: 'epoch must be at most 1000000000000',
      });
    });

    it.each([
      ['the current UNIX second', { epoch: 1, version: 7 }, undefined, NOW_S],
      ['the next number, when the current epoch is later than the clock', { epoch: 1_950_000_000, version: 7 }, undefined, 1_950_000_001],
      [
        'above the epoch it is told to pass, when that is later still',
        { epoch: 1, version: 7 },
        { epoch: 1_960_000_000, version: 4 },
        1_960_000_001,
      ],
    ])('without an epoch asked for, starts %s', async (_case, current, above, expected) => {
      await arrange(current);
      const replica = h.replica();
      pinClock();

      expect(await replica.keySet.startEpoch(ACTOR, undefined, above)).toEqual({ epoch: expected, version: 1 });
      expect(await headOf(replica)).toEqual({ epoch: expected, version: 1 });
    });
  });

  describe('startEpochIfRestored', () => {
    it('acts as key-registry:restore-detected', () => {
      expect(RESTORE_DETECTED_ACTOR).toBe('key-registry:restore-detected');
    });

    it.each([
      ['a later version of the same epoch', { epoch: 1, version: 9 }, NOW_S],
      ['a later epoch', { epoch: 2, version: 1 }, NOW_S],
      ['an epoch later than the clock', { epoch: 1_950_000_000, version: 3 }, 1_950_000_001],
    ])('starts a new epoch when the mark is ahead of the database (%s)', async (_case, mark, expected) => {
      const replica = await replicaMarked(mark);
      pinClock();

      await replica.keySet.startEpochIfRestored();

      expect(await headOf(replica)).toEqual({ epoch: expected, version: 1 });
      expect(await epochAudits()).toEqual([epochAudit(RESTORE_DETECTED_ACTOR, START, expected)]);
      expect(await h.events.of({ epoch: expected, version: 1 }, since)).toMatchObject({
        extends: 0,
        upserts: [],
        removals: [],
        modes: MODES,
      });
    });

    it.each([
      ['at the same head', START, START],
      ['behind the database', START, { epoch: 1, version: 6 }],
      ['of an earlier epoch, whatever its version', { epoch: 2, version: 1 }, { epoch: 1, version: 50 }],
    ])('does nothing when the mark is %s', async (_case, held, mark) => {
      await arrange(held);
      const replica = await replicaMarked(mark);

      await replica.keySet.startEpochIfRestored();

      expect(await headOf(replica)).toEqual(held);
      expect(await epochAudits()).toEqual([]);
    });

    it('does nothing when there is no mark, or what is stored is not one this registry signed', async () => {
      const unmarked = h.replica();
      await unmarked.keySet.startEpochIfRestored();
      const garbled = h.replica();
      await garbled.cache.set(PUBLISHED_MARK_KEY, '{"epoch":"9","version":1}', 60_000);
      await garbled.keySet.startEpochIfRestored();
      // Written into Redis by someone else: a mark far ahead would use up the epochs left.
      const forged = h.replica();
      const stranger = new PayloadSigner(parseSigningKey(generateSigningKeyPair().signingKey));
      for (const text of [
        JSON.stringify({ epoch: 999_999_999_999, version: 0 }),
        JSON.stringify(stranger.sign({ kind: 'portal-keyset.mark', epoch: 999_999_999_999, version: 0 })),
      ]) {
        await forged.cache.set(PUBLISHED_MARK_KEY, text, 60_000);
        expect(await forged.mark.read()).toBeUndefined();
        await forged.keySet.startEpochIfRestored();
      }

      expect(await headOf(unmarked)).toEqual(START);
      expect(await epochAudits()).toEqual([]);
    });

    it('logs an error and does nothing when the cache cannot be read', async () => {
      const logs = new LogCapture();
      const replica = h.replica({
        cache: new UnreachableCache({ namespace: 'unreachable' }),
        logger: createLogger({ service: 'key-registry', level: 'warn', destination: logs }),
      });

      await expect(replica.keySet.startEpochIfRestored()).resolves.toBeUndefined();

      expect(logs.lines.map(({ level, msg, err }) => ({ level, msg, err: (err as { message?: string } | undefined)?.message }))).toEqual([
        {
          level: 'error',
          msg: 'could not check the key set database against what was announced; after a restore, start a new epoch (POST /ops/keyset/epoch)',
          err: 'connect ECONNREFUSED 127.0.0.1:6379',
        },
      ]);
      expect(await headOf(replica)).toEqual(START);
      expect(await epochAudits()).toEqual([]);
    });

    it('runs when the service starts (onApplicationBootstrap)', async () => {
      const replica = await replicaMarked({ epoch: 1, version: 9 });
      pinClock();

      await replica.keySet.onApplicationBootstrap();

      expect(await headOf(replica)).toEqual({ epoch: NOW_S, version: 1 });
    });

    it('runs when an announcement finds the mark ahead (a database restored under a running replica)', async () => {
      const replica = await replicaMarked({ epoch: 1, version: 50 });
      pinClock();

      await replica.registry.createOrganisation(uniqueId('org'), ACTOR);

      // Version 8 is announced; raising the mark finds 1/50 there, so a new epoch follows behind the caller's back.
      await h.events.of({ epoch: 1, version: 8 }, since);
      await h.events.of({ epoch: NOW_S, version: 1 }, since);
      expect(h.events.headsSince(since)).toEqual([
        { epoch: 1, version: 8 },
        { epoch: NOW_S, version: 1 },
      ]);
      expect(await epochAudits()).toEqual([epochAudit(RESTORE_DETECTED_ACTOR, { epoch: 1, version: 8 }, NOW_S)]);
    });

    // The service's comment: "Two replicas finding it at once start one epoch: the second finds the first's, or a 409."
    // Both read the database before either commits (held here by a row lock); the second then computes current + 1
    // inside its own transaction, which is always above the first's epoch, so a second epoch is started, not a 409.
    it('starts one epoch when two replicas find the mark ahead at once', async () => {
      const a = await replicaMarked({ epoch: 1, version: 9 });
      const b = await replicaMarked({ epoch: 1, version: 9 });
      const holder = await h.connection();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM key_registry.keyset_state WHERE id = 1 FOR UPDATE');
        let settled = 0;
        const both = Promise.all([a, b].map((replica) => replica.keySet.startEpochIfRestored().finally(() => settled++)));
        // Both have read the state and wait for the row lock (or, were the check changed, are done without it).
        const waiting = async () =>
          Number(
            (await h.sql(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`))[0]
              .n,
          );
        await eventually(async () => settled === 2 || (await waiting()) >= 2);
        pinClock();
        await holder.query('COMMIT');
        await both;
      } finally {
        holder.release();
      }

      expect(await headOf(a)).toEqual({ epoch: NOW_S, version: 1 });
      expect(await epochAudits()).toEqual([epochAudit(RESTORE_DETECTED_ACTOR, START, NOW_S)]);
    });
  });
});
