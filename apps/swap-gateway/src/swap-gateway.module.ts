import { Module } from '@nestjs/common';
import { ChainDirectory } from '@swap/messaging';
import { IntentsController } from './intents/intents.controller';
import { RelayController } from './intents/relay.controller';
import { KeysModule } from './keys/keys.module';
import { QuotesController } from './quotes/quotes.controller';
import { SubmissionsController } from './submissions/submissions.controller';
import { SubmitLimits } from './submissions/submit-limits';
import { TokensModule } from './tokens/tokens.module';

@Module({ imports: [KeysModule, TokensModule], controllers: [QuotesController, IntentsController, RelayController, SubmissionsController], providers: [ChainDirectory, SubmitLimits] })
export class SwapGatewayModule {}
