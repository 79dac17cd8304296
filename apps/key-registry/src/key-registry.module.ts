import { Module } from '@nestjs/common';
import { OPS_TOKEN } from '@swap/key-auth';
import { KeyRegistryConfig } from './key-registry.config';
import { OpsController } from './ops/ops.controller';
import { KeyRegistryService } from './registry/key-registry.service';
import { RegistryHandlers } from './registry/registry.handlers';

@Module({
  controllers: [RegistryHandlers, OpsController],
  providers: [KeyRegistryService, { provide: OPS_TOKEN, inject: [KeyRegistryConfig], useFactory: (c: KeyRegistryConfig) => c.OPS_TOKEN }],
})
export class KeyRegistryModule {}
