import { Module } from '@nestjs/common';
import { IntentsModule } from './intents/intents.module';
import { RegistryModule } from './registry/registry.module';

@Module({ imports: [RegistryModule, IntentsModule] })
export class QuoteBuilderModule {}
