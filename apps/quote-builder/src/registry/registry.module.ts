import { Module } from '@nestjs/common';
import { ChainAccess } from '@swap/chains';
import { QuoteBuilderConfig } from '../quote-builder.config';
import { RegistryHandlers } from './registry.handlers';
import { RegistryAnnouncer, RegistryService } from './registry.service';

@Module({ controllers: [RegistryHandlers], providers: [RegistryService, RegistryAnnouncer, { provide: ChainAccess, inject: [QuoteBuilderConfig], useFactory: (c: QuoteBuilderConfig) => new ChainAccess({ timeoutMs: c.CHAIN_RPC_TIMEOUT_MS }) }],
  exports: [RegistryService, ChainAccess], })
export class RegistryModule {}
