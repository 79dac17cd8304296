import { Module } from '@nestjs/common';
import { IntentsController } from './intents/intents.controller';
import { RelayController } from './intents/relay.controller';
import { KeysModule } from './keys/keys.module';
import { QuotesController } from './quotes/quotes.controller';
import { SubmissionEventsController } from './submissions/submission-events.controller';
import { SubmissionStreams } from './submissions/submission-streams';
import { SubmissionsController } from './submissions/submissions.controller';
import { SubmitLimits } from './submissions/submit-limits';
import { SubmitTx } from './submissions/submit-tx';
import { ReadsModule } from './reads/reads.module';
import { VaultsController } from './leverage-yield/vaults.controller';
import { VaultIntentsController } from './leverage-yield/vault-intents.controller';
import { VaultSubmissionsController } from './leverage-yield/vault-submissions.controller';
import { VaultHelpersController } from './leverage-yield/vault-helpers.controller';

@Module({
  imports: [KeysModule, ReadsModule],
  controllers: [
    QuotesController,
    IntentsController,
    RelayController,
    SubmissionsController,
    SubmissionEventsController,
    VaultsController,
    VaultIntentsController,
    VaultSubmissionsController,
    VaultHelpersController,
  ],
  providers: [SubmitLimits, SubmissionStreams, SubmitTx],
})
export class SwapGatewayModule {}
