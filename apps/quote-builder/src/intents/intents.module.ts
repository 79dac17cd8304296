import { Module } from '@nestjs/common';
import { RegistryModule } from '../registry/registry.module';
import { GasEstimatorService } from './gas-estimator.service';
import { IntentBuilderService } from './intent-builder.service';
import { IntentsHandlers } from './intents.handlers';

@Module({ imports: [RegistryModule], controllers: [IntentsHandlers], providers: [IntentBuilderService, GasEstimatorService], exports: [IntentBuilderService] })
export class IntentsModule {}
