import { removePrefixedStreams } from '@swap/messaging';
import { testInfra, uniqueId } from '@swap/testing';
import { migrateJetStream } from './jetstream';

jest.setTimeout(30_000);

describe("npm run migrate: relay-tracker's JetStream streams", () => {
  const prefix = uniqueId('migrate').replace(/_/g, '-');
  const env = { NATS_URL: testInfra.natsUrl, NATS_SUBJECT_PREFIX: prefix, NATS_ALLOW_ANONYMOUS: 'true' };

  afterAll(() => removePrefixedStreams(testInfra.natsUrl, prefix));

  it('makes each stream and consumer once, with the ack wait of relay-tracker’s WORK_LEASE_MS, and says what it did', async () => {
    expect(await migrateJetStream(env)).toEqual([
      expect.stringMatching(
        new RegExp(`^JetStream RELAY_TRACKER_SETTLEMENT_${prefix}, consumer relay-tracker-settlement_${prefix} on .*: created$`),
      ),
      expect.stringMatching(/RELAY_TRACKER_WEBHOOKS_.*: created$/),
      expect.stringMatching(/RELAY_TRACKER_CHAIN_EVENTS_.*: created$/),
    ]);
    expect(await migrateJetStream({ ...env, WORK_LEASE_MS: '45000' })).toEqual([
      expect.stringMatching(/RELAY_TRACKER_SETTLEMENT_.*: updated \(consumer ack_wait\)$/),
      expect.stringMatching(/RELAY_TRACKER_WEBHOOKS_.*: up to date$/),
      expect.stringMatching(/RELAY_TRACKER_CHAIN_EVENTS_.*: up to date$/),
    ]);
  });

  it('has nothing to do without NATS_URL or with the embedded default’s WORK_QUEUE=postgres, and refuses a bad setting by name', async () => {
    expect(await migrateJetStream({})).toEqual([]);
    expect(await migrateJetStream({ ...env, WORK_QUEUE: 'postgres' })).toEqual([]);
    await expect(migrateJetStream({ ...env, WORK_LEASE_MS: '12' })).rejects.toThrow(/WORK_LEASE_MS/);
  });
});
