import { Module } from '@nestjs/common';
import { ChainCatalogModule } from '../chain-catalog/chain-catalog.module';
import { IntentsModule } from '../intents/intents.module';
import { QuotesModule } from '../quotes/quotes.module';
import { LsdAprSource } from './lsd-apr';
import { VaultIntentsService } from './vault-intents.service';
import { VaultReadsService } from './vault-reads.service';
import { VaultsHandlers } from './vaults.handlers';

@Module({
  imports: [ChainCatalogModule, IntentsModule, QuotesModule],
  controllers: [VaultsHandlers],
  providers: [VaultReadsService, VaultIntentsService, LsdAprSource],
})
export class VaultsModule {}
