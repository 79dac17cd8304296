import { Module } from '@nestjs/common';
import { ChainAccess } from '@swap/chains';
import { QuoteBuilderConfig } from '../quote-builder.config';
import { ChainCatalogHandlers } from './chain-catalog.handlers';
import { ChainCatalog } from './chain-catalog';
import { ChainCatalogAnnouncer } from './chain-catalog-announcer';

@Module({
  controllers: [ChainCatalogHandlers],
  providers: [
    ChainCatalog,
    ChainCatalogAnnouncer,
    {
      provide: ChainAccess,
      inject: [QuoteBuilderConfig],
      useFactory: (c: QuoteBuilderConfig) => new ChainAccess({ timeoutMs: c.CHAIN_RPC_TIMEOUT_MS }),
    },
  ],
  exports: [ChainCatalog, ChainAccess],
})
export class ChainCatalogModule {}
