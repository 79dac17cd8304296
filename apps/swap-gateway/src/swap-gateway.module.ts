import { Module } from '@nestjs/common';
import { IntentsController } from './intents/intents.controller';
import { RelayController } from './intents/relay.controller';
import { KeysModule } from './keys/keys.module';
import { QuotesController } from './quotes/quotes.controller';
import { SubmissionEventsController } from './submissions/submission-events.controller';
import { SubmissionStreams } from './submissions/submission-streams';
import { SubmissionsController } from './submissions/submissions.controller';
import { SubmitLimits } from './submissions/submit-limits';
import { ReadsModule } from './reads/reads.module';
import { VaultsController } from './leverage-yield/vaults.controller';

@Module({
  imports: [KeysModule, ReadsModule],
  controllers: [QuotesController, IntentsController, RelayController, SubmissionsController, SubmissionEventsController, VaultsController],
  providers: [SubmitLimits, SubmissionStreams],
})
export class SwapGatewayModule {}
