import { Module } from '@nestjs/common';
import { IntentsController } from './intents/intents.controller';
import { RelayController } from './intents/relay.controller';
import { KeysModule } from './keys/keys.module';
import { QuotesController } from './quotes/quotes.controller';
import { SubmissionsController } from './submissions/submissions.controller';
import { SubmitLimits } from './submissions/submit-limits';
import { ReadsModule } from './reads/reads.module';

@Module({
  imports: [KeysModule, ReadsModule],
  controllers: [QuotesController, IntentsController, RelayController, SubmissionsController],
  providers: [SubmitLimits],
})
export class SwapGatewayModule {}
