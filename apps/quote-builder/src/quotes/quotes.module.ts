import { Module } from '@nestjs/common';
import { IntentsModule } from '../intents/intents.module';
import { MarketplaceModule } from '../marketplace/marketplace.module';
import { ChainCatalogModule } from '../chain-catalog/chain-catalog.module';
import { QuoteService } from './quote.service';
import { QuotesHandlers } from './quotes.handlers';

@Module({
  imports: [ChainCatalogModule, MarketplaceModule, IntentsModule],
  controllers: [QuotesHandlers],
  providers: [QuoteService],
  exports: [QuoteService],
})
export class QuotesModule {}
