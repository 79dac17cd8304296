import { Module } from '@nestjs/common';
import { ChainClients } from './chain-clients';
import { RegistryHandlers } from './registry.handlers';
import { RegistryService } from './registry.service';

@Module({ controllers: [RegistryHandlers], providers: [RegistryService, ChainClients], exports: [RegistryService, ChainClients] })
export class RegistryModule {}
