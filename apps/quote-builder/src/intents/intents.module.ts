import { Module } from '@nestjs/common';
import { RegistryModule } from '../registry/registry.module';
import { IntentBuilderService } from './intent-builder.service';
import { IntentsHandlers } from './intents.handlers';

@Module({ imports: [RegistryModule], controllers: [IntentsHandlers], providers: [IntentBuilderService] })
export class IntentsModule {}
