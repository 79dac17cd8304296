import { Module } from '@nestjs/common';
import { MarketplaceModule } from '../marketplace/marketplace.module';
import { RegistryModule } from '../registry/registry.module';
import { ExecutionService } from './execution.service';
import { ExecutionsHandlers } from './executions.handlers';

@Module({ imports: [RegistryModule, MarketplaceModule], controllers: [ExecutionsHandlers], providers: [ExecutionService], exports: [ExecutionService] })
export class ExecutionsModule {}
