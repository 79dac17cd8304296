import { Module } from '@nestjs/common';
import { ChainCatalogModule } from '../chain-catalog/chain-catalog.module';
import { ExecutionsModule } from '../executions/executions.module';
import { BuildAnnouncer } from './build-announcer';
import { GasEstimatorService } from './gas-estimator.service';
import { HubWallets } from './hub-wallets';
import { IntentBuilderService } from './intent-builder.service';
import { IntentsHandlers } from './intents.handlers';

@Module({
  imports: [ChainCatalogModule, ExecutionsModule],
  controllers: [IntentsHandlers],
  providers: [IntentBuilderService, GasEstimatorService, BuildAnnouncer, HubWallets],
  exports: [IntentBuilderService, HubWallets, BuildAnnouncer],
})
export class IntentsModule {}
