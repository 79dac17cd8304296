import { Module } from '@nestjs/common';
import { SwapGatewayConfig } from '../swap-gateway.config';
import { catalogSignaturesFrom, ChainCatalogMirror, ChainCatalogMirrorEvents } from '@swap/chain-catalog';
import { ConfigController } from './config.controller';
import { HubClock } from './hub-clock';
import { ReadsController } from './reads.controller';
import { TokensController } from './tokens.controller';

@Module({
  controllers: [TokensController, ReadsController, ConfigController, ChainCatalogMirrorEvents],
  providers: [ChainCatalogMirror, catalogSignaturesFrom(SwapGatewayConfig), HubClock],
  exports: [ChainCatalogMirror, HubClock],
})
export class ReadsModule {}
