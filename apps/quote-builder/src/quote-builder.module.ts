import { Module } from '@nestjs/common';
import { ExecutionsModule } from './executions/executions.module';
import { IntentsModule } from './intents/intents.module';
import { MarketplaceModule } from './marketplace/marketplace.module';
import { QuotesModule } from './quotes/quotes.module';
import { ChainCatalogModule } from './chain-catalog/chain-catalog.module';
import { SolverApiModule } from './solver-api/solver-api.module';
import { VaultsModule } from './vaults/vaults.module';

@Module({ imports: [ChainCatalogModule, IntentsModule, MarketplaceModule, QuotesModule, ExecutionsModule, SolverApiModule, VaultsModule] })
export class QuoteBuilderModule {}
