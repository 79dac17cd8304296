import { loadConfig, redactUrl } from '@swap/config';
import { isPermissionViolation, NatsBus, natsBusOptions, provisionJetStream } from '@swap/messaging';
import { RelayTrackerJetStreamConfig, relayTrackerJetStream } from '../../../apps/relay-tracker/src/relay-tracker.definition';

/**
 * relay-tracker's JetStream streams and consumers, made or brought to this release's settings
 * as the NATS user `operator` (its inbox prefix; NATS_NKEY_SEED and the like are the operator's
 * credentials). The consumers' ack wait is relay-tracker's WORK_LEASE_MS, read from the same
 * environment. Nothing to do without NATS_URL or with WORK_QUEUE=postgres.
 */
export async function migrateJetStream(env: NodeJS.ProcessEnv, options: { waitMs?: number; everyMs?: number } = {}): Promise<string[]> {
  if (!env.NATS_URL) return [];
  const config = loadConfig(RelayTrackerJetStreamConfig, env);
  if (config.WORK_QUEUE !== 'jetstream') return [];
  // A NATS server picks up a new authorization block a while after its ConfigMap changed: refusals are waited out.
  const until = Date.now() + (options.waitMs ?? 120_000);
  for (;;) {
    try {
      return await provisionAll(config);
    } catch (error) {
      if (!isPermissionViolation(error) || Date.now() >= until) throw error;
      process.stderr.write(
        `NATS refused the operator's JetStream request (${(error as Error).message}); waiting for the server to load the authorization block (docs/operators/securing-the-bus.md#jetstream-streams-and-consumers)\n`,
      );
      await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 5_000));
    }
  }
}

async function provisionAll(config: RelayTrackerJetStreamConfig): Promise<string[]> {
  const bus = await NatsBus.connect(natsBusOptions(config, 'operator'));
  try {
    const jsm = await bus.connection.jetstreamManager();
    const lines: string[] = [];
    for (const resource of Object.values(relayTrackerJetStream(config))) {
      const done = await provisionJetStream(jsm, resource, bus.subjectPrefix || undefined);
      const changed = done.changed.length ? ` (${done.changed.join(', ')})` : '';
      lines.push(`JetStream ${done.stream}, consumer ${done.consumer} on ${redactUrl(config.NATS_URL)}: ${done.outcome}${changed}`);
    }
    return lines;
  } finally {
    await bus.close();
  }
}
