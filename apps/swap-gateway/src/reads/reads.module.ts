import { Module } from '@nestjs/common';
import { ChainCatalogMirror, ChainCatalogMirrorEvents } from '@swap/chain-catalog';
import { ConfigController } from './config.controller';
import { HubClock } from './hub-clock';
import { ReadsController } from './reads.controller';
import { TokensController } from './tokens.controller';

@Module({
  controllers: [TokensController, ReadsController, ConfigController, ChainCatalogMirrorEvents],
  providers: [ChainCatalogMirror, HubClock],
  exports: [ChainCatalogMirror],
})
export class ReadsModule {}
