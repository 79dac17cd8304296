import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { relayDataOf } from '@swap/chains';
import type { Intent, StoredTransition } from '@swap/contracts';
import type { Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';
import { PrismaClient, type Prisma } from '../generated/prisma/client';
import { RelayTrackerConfig } from '../relay-tracker.config';
import { RelayTrackerMetrics } from '../relay-tracker.metrics';
import { sourceTransaction } from '../chain-events/source-transaction';
import { SettlementChains } from '../settlement/settlement-chains';
import { SettlementQueue } from '../settlement/settlement-queue';
import { StatusReadModel } from '../submissions/status-read-model';

const EVERY_MS = 2_000;
const BATCH = 100;

interface Candidate {
  intent_hash: string;
  org_id: string | null;
  operation: string;
  hub_tx: string;
  intent: Intent;
}

/** Submits what this deployment built and nobody submitted; see docs/architecture/settlement.md#adoption. */
@Injectable()
export class Adoption implements OnModuleInit, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private running?: Promise<string[]>;

  constructor(
    private readonly db: PrismaClient,
    private readonly chains: SettlementChains,
    private readonly queue: SettlementQueue,
    private readonly readModel: StatusReadModel,
    private readonly metrics: RelayTrackerMetrics,
    private readonly config: RelayTrackerConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.sweep(), Math.min(EVERY_MS, this.config.ADOPT_AFTER_MS));
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  sweep(): Promise<string[]> {
    if (this.running) return Promise.resolve([]);
    this.running = this.sweepOnce().finally(() => (this.running = undefined));
    return this.running;
  }

  private async sweepOnce(): Promise<string[]> {
    try {
      return await this.db
        .$transaction(async (tx) => {
          const due = await tx.$queryRawUnsafe<Candidate[]>(
            `SELECT b.intent_hash, b.org_id, b.operation, e.tx_hash AS hub_tx, e.data->'intent' AS intent
           FROM relay_tracker.build_records b
           JOIN relay_tracker.chain_events e ON e.intent_hash = b.intent_hash AND e.kind = 'intent_created' AND e.chain_key = $1
           WHERE b.adopted_at IS NULL AND e.block_time < now() - make_interval(secs => $2::double precision / 1000)
             AND NOT EXISTS (SELECT 1 FROM relay_tracker.submissions s WHERE s.intent_hash = b.intent_hash)
           ORDER BY e.block_number LIMIT $3
           FOR UPDATE OF b SKIP LOCKED`,
            this.chains.hub.key,
            this.config.ADOPT_AFTER_MS,
            BATCH,
          );
          const adopted: string[] = [];
          for (const candidate of due) {
            const id = await this.adopt(tx, candidate);
            if (id) adopted.push(id);
          }
          return adopted;
        })
        .then(async (ids) => {
          for (const id of ids) {
            const row = await this.db.submission.findUnique({ where: { id } });
            if (row) await this.readModel.write(row);
            await this.queue.add(id);
          }
          return ids;
        });
    } catch (error) {
      this.logger.warn({ err: error }, 'adoption sweep failed');
      return [];
    }
  }

  private async adopt(tx: Prisma.TransactionClient, candidate: Candidate): Promise<string | undefined> {
    const hub = this.chains.hub;
    const intent = candidate.intent;
    const source = await sourceTransaction(this.chains, intent.srcChain, candidate.hub_tx, (text, values) =>
      tx.$queryRawUnsafe(text, ...values),
    );
    if (!source) return undefined; // its deposit is not indexed (yet, or on a chain nobody follows): a later sweep
    const history: StoredTransition[] = [
      {
        status: 'pending',
        at: new Date().toISOString(),
        detail: `adopted: built by this deployment and broadcast, but not submitted within ${Math.round(this.config.ADOPT_AFTER_MS / 1000)} s of its hub intent`,
      },
    ];
    const inserted = await tx.submission.createManyAndReturn({
      data: [
        {
          txHash: source.txHash,
          srcChainKey: source.chainKey,
          walletAddress: this.chains.addressOn(source.chainKey, intent.srcChain === hub.relayChainId ? intent.creator : intent.srcAddress),
          intent: intent as unknown as Prisma.InputJsonValue,
          relayData: relayDataOf(intent, { relayChainId: hub.relayChainId, intents: this.chains.intents() }).payload.toLowerCase(),
          intentHash: candidate.intent_hash,
          history: history as unknown as Prisma.InputJsonValue,
          submittedByOrg: candidate.org_id,
          operation: candidate.operation,
          adopted: true,
          wakeAt: new Date(Date.now() + this.config.FALLBACK_CHECK_MS),
        },
      ],
      skipDuplicates: true,
    });
    await tx.buildRecord.updateMany({ where: { intentHash: candidate.intent_hash }, data: { adoptedAt: new Date() } });
    if (!inserted[0]) return undefined; // submitted meanwhile
    this.metrics.adopted.inc();
    this.logger.info(
      { txHash: source.txHash, srcChainKey: source.chainKey, intentHash: candidate.intent_hash },
      'swap adopted from the chain',
    );
    return inserted[0].id;
  }
}
