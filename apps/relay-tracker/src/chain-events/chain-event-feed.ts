import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { ChainEventBatch } from '@swap/contracts';
import { BusIntake, JetStreamEventStream, MessagingClient, NatsBus } from '@swap/messaging';
import type { Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';
import { relayTrackerJetStream } from '../jetstream';
import { RelayTrackerConfig } from '../relay-tracker.config';

type BatchHandler = (batch: ChainEventBatch) => Promise<void>;

/** The same range of the same chain is the same batch. */
export function batchId(batch: ChainEventBatch): string {
  const last = batch.events.at(-1)?.blockHash ?? '';
  return batch.retractedAfter !== undefined
    ? `${batch.chainKey}:retract:${batch.retractedAfter}:${batch.toBlock}`
    : `${batch.chainKey}:${batch.fromBlock}-${batch.toBlock}:${last}`;
}

/** Batches say where to look (the index is written first); see docs/architecture/settlement.md#chain-followers. */
@Injectable()
export class ChainEventFeed implements OnModuleDestroy {
  private stream?: JetStreamEventStream<ChainEventBatch>;
  private opening?: Promise<void>;
  private handler?: BatchHandler;
  private leaveIntake?: () => void;

  constructor(
    private readonly messaging: MessagingClient,
    private readonly config: RelayTrackerConfig,
    private readonly intake: BusIntake,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  open(): Promise<void> {
    this.opening ??= (async () => {
      if (this.config.WORK_QUEUE !== 'jetstream') return;
      const bus = this.messaging.bus;
      if (!(bus instanceof NatsBus)) throw new Error('WORK_QUEUE=jetstream needs NATS (the embedded default uses WORK_QUEUE=postgres)');
      const { kind: _kind, ...resource } = relayTrackerJetStream(this.config).chainEvents;
      this.stream = await JetStreamEventStream.open<ChainEventBatch>(bus.connection, {
        ...resource,
        prefix: bus.subjectPrefix || undefined,
        onError: (error) => this.logger.warn({ err: error }, 'chain event stream error'),
      });
    })();
    return this.opening;
  }

  async publish(batch: ChainEventBatch): Promise<void> {
    await this.open();
    if (this.stream) return this.stream.publish(batch, batchId(batch));
    const handler = this.handler;
    if (!handler) return;
    // After this turn, so a follower never waits for settlement.
    setImmediate(() => void handler(batch).catch((error: unknown) => this.logger.warn({ err: error }, 'chain event batch not handled')));
  }

  async consume(handler: BatchHandler, concurrency: number): Promise<void> {
    this.handler = handler;
    await this.open();
    if (!this.stream) return;
    this.stream.start(handler, { concurrency });
    this.leaveIntake = this.intake.add(this.stream);
  }

  async backlog(): Promise<{ pending: number; redelivered: number; inHand: number } | undefined> {
    return this.stream?.backlog();
  }

  async onModuleDestroy(): Promise<void> {
    this.leaveIntake?.();
    this.handler = undefined;
    await this.stream?.stop();
  }
}
