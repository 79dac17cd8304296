import { Module } from '@nestjs/common';
import { RegistryHandlers } from './registry.handlers';
import { RegistryService } from './registry.service';

@Module({ controllers: [RegistryHandlers], providers: [RegistryService], exports: [RegistryService] })
export class RegistryModule {}
