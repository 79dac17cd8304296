import { Module } from '@nestjs/common';
import { ChainCatalogMirror, ChainCatalogMirrorEvents } from '@swap/messaging';
import { HubClock } from './hub-clock';
import { ReadsController } from './reads.controller';
import { TokensController } from './tokens.controller';

/** The public reads (tokens, deadline, partner fee), answered from memory. */
@Module({
  controllers: [TokensController, ReadsController, ChainCatalogMirrorEvents],
  providers: [ChainCatalogMirror, HubClock],
  exports: [ChainCatalogMirror],
})
export class ReadsModule {}
