import { Module } from '@nestjs/common';
import { ChainCatalogModule } from '../chain-catalog/chain-catalog.module';
import { GasEstimatorService } from './gas-estimator.service';
import { IntentBuilderService } from './intent-builder.service';
import { IntentsHandlers } from './intents.handlers';

@Module({
  imports: [ChainCatalogModule],
  controllers: [IntentsHandlers],
  providers: [IntentBuilderService, GasEstimatorService],
  exports: [IntentBuilderService],
})
export class IntentsModule {}
