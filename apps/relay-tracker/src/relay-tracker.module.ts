import { Module } from '@nestjs/common';
import { Adoption } from './adoption/adoption';
import { BuildRecords } from './adoption/build-records';
import { ChainEventFeed } from './chain-events/chain-event-feed';
import { ChainFollowers } from './chain-events/chain-followers';
import { ChainIndex } from './chain-events/chain-index';
import { FollowerPool } from './chain-events/follower-pool';
import { ExplorerController } from './explorer/explorer.controller';
import { ExplorerReads } from './explorer/explorer-reads';
import { SwapLookups } from './explorer/swap-lookups';
import { RelayHandlers } from './relay/relay.handlers';
import { RelayLookups } from './relay/relay-lookups';
import { RelayTrackerConfig } from './relay-tracker.config';
import { RelayTrackerMetrics } from './relay-tracker.metrics';
import { SettlementChains } from './settlement/settlement-chains';
import { SettlementGauges } from './settlement/settlement-gauges';
import { SettlementQueue } from './settlement/settlement-queue';
import { SettlementWakeups } from './settlement/settlement-wakeups';
import { SettlementWorker } from './settlement/settlement.worker';
import { SubmissionStore } from './settlement/submission-store';
import { ClaimsService } from './submissions/claims.service';
import { StatusReadModel } from './submissions/status-read-model';
import { SubmissionsHandlers } from './submissions/submissions.handlers';
import { OrgSwaps } from './submissions/org-swaps';
import { SubmissionsService } from './submissions/submissions.service';
import { WebhookDispatcher } from './webhooks/webhook-dispatcher';
import { WEBHOOK_NETWORK, WebhooksService } from './webhooks/webhooks.service';
import { WebhooksHandlers } from './webhooks/webhooks.handlers';

@Module({
  controllers: [SubmissionsHandlers, RelayHandlers, WebhooksHandlers, ExplorerController],
  providers: [
    RelayTrackerMetrics,
    RelayLookups,
    SubmissionsService,
    OrgSwaps,
    ClaimsService,
    StatusReadModel,
    SubmissionStore,
    SettlementWorker,
    SettlementQueue,
    SettlementWakeups,
    SettlementGauges,
    FollowerPool,
    ChainIndex,
    ExplorerReads,
    SwapLookups,
    ChainEventFeed,
    ChainFollowers,
    BuildRecords,
    Adoption,
    WebhooksService,
    WebhookDispatcher,
    // Tests give their own resolver and connect hook.
    { provide: WEBHOOK_NETWORK, useValue: {} },
    {
      provide: SettlementChains,
      inject: [RelayTrackerConfig, RelayTrackerMetrics],
      useFactory: (config: RelayTrackerConfig, metrics: RelayTrackerMetrics) => new SettlementChains(config, metrics),
    },
  ],
})
export class RelayTrackerModule {}
