import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Events, type IntentBuiltEvent } from '@swap/contracts';
import { BusIntake, MessagingClient, type BusSubscription, type IntakeMember } from '@swap/messaging';
import type { Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';
import { PrismaClient } from '../generated/prisma/client';
import { RelayTrackerConfig } from '../relay-tracker.config';

/** A limit order has deadline 0. */
const LIMIT_ORDER_KEEP_MS = 7 * 86_400_000;
const PURGE_EVERY_MS = 60_000;
const HASH = /^0x[0-9a-f]{64}$/;
const OPERATIONS = new Set(['leverage_deposit', 'leverage_withdraw']);

/** Build records for adoption, one replica storing each (a queue group); see docs/architecture/settlement.md#adoption. */
@Injectable()
export class BuildRecords implements OnModuleInit, OnModuleDestroy, IntakeMember {
  private subscription?: BusSubscription;
  private paused = false;
  private timer?: NodeJS.Timeout;
  private leaveIntake?: () => void;

  constructor(
    private readonly db: PrismaClient,
    private readonly messaging: MessagingClient,
    private readonly config: RelayTrackerConfig,
    private readonly intake: BusIntake,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.subscribe();
    this.leaveIntake = this.intake.add(this);
    this.timer = setInterval(() => void this.purge(), PURGE_EVERY_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    this.leaveIntake?.();
    await this.subscription?.drain().catch(() => undefined);
  }

  /** Its database is down: the peers store the records meanwhile. */
  pause(): void {
    if (this.paused) return;
    this.paused = true;
    void this.subscription?.drain().catch(() => undefined);
    this.subscription = undefined;
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.subscribe();
  }

  async keep(built: IntentBuiltEvent): Promise<void> {
    if (!HASH.test(built.intentHash) || !/^\d{1,20}$/.test(built.deadline)) return;
    const deadlineMs = Number(built.deadline) * 1000;
    const keepUntil = new Date(deadlineMs === 0 ? Date.now() + LIMIT_ORDER_KEEP_MS : deadlineMs + this.config.ADOPT_AFTER_MS);
    await this.db.buildRecord.createMany({
      data: [
        {
          intentHash: built.intentHash,
          srcChainKey: built.srcChainKey.slice(0, 64),
          dstChainKey: built.dstChainKey.slice(0, 64),
          orgId: built.orgId?.slice(0, 64) ?? null,
          operation: built.operation && OPERATIONS.has(built.operation) ? built.operation : 'swap',
          keepUntil,
        },
      ],
      skipDuplicates: true,
    });
  }

  private subscribe(): void {
    this.subscription = this.messaging.bus.subscribe(
      Events.intentBuilt,
      (message) => {
        let built: IntentBuiltEvent;
        try {
          built = JSON.parse(message.data) as IntentBuiltEvent;
        } catch {
          return;
        }
        void this.keep(built).catch((error: unknown) => this.logger.warn({ err: error }, 'build record not stored'));
      },
      { queue: 'relay-tracker' },
    );
  }

  private async purge(): Promise<void> {
    await this.db.buildRecord.deleteMany({ where: { keepUntil: { lt: new Date() } } }).catch(() => undefined);
  }
}
