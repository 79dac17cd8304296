import { Module } from '@nestjs/common';
import { RelayHandlers } from './relay/relay.handlers';
import { RelayLookups } from './relay/relay-lookups.service';
import { RelayTrackerConfig } from './relay-tracker.config';
import { SettlementChains } from './settlement/settlement-chains';
import { SettlementQueue } from './settlement/settlement-queue';
import { SettlementWorker } from './settlement/settlement.worker';
import { SubmissionStore } from './settlement/submission-store';
import { ClaimsService } from './submissions/claims.service';
import { SubmissionsHandlers } from './submissions/submissions.handlers';
import { SubmissionsService } from './submissions/submissions.service';

/** relay-tracker: submissions, settlement driving each to solved or failed, and the relay lookups. */
@Module({
  controllers: [SubmissionsHandlers, RelayHandlers],
  providers: [
    RelayLookups,
    SubmissionsService,
    ClaimsService,
    SubmissionStore,
    SettlementWorker,
    SettlementQueue,
    { provide: SettlementChains, inject: [RelayTrackerConfig], useFactory: (config: RelayTrackerConfig) => new SettlementChains(config) },
  ],
})
export class RelayTrackerModule {}
