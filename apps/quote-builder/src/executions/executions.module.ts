import { Module } from '@nestjs/common';
import { MarketplaceModule } from '../marketplace/marketplace.module';
import { ChainCatalogModule } from '../chain-catalog/chain-catalog.module';
import { ExecutionService } from './execution.service';
import { ExecutionsHandlers } from './executions.handlers';
import { HubIntentStates } from './hub-intent-states';

@Module({
  imports: [ChainCatalogModule, MarketplaceModule],
  controllers: [ExecutionsHandlers],
  providers: [ExecutionService, HubIntentStates],
  exports: [ExecutionService, HubIntentStates],
})
export class ExecutionsModule {}
