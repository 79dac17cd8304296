import { Module } from '@nestjs/common';
import { operatorTokenFrom } from '@swap/key-auth';
import { KeyRegistryConfig } from './key-registry.config';
import { keySetSignerProvider } from './keyset/key-set-signer.provider';
import { PublishedMark } from './keyset/published-mark';
import { OpsController } from './ops/ops.controller';
import { KeyRegistryService } from './registry/key-registry.service';
import { RegistryHandlers } from './registry/registry.handlers';

@Module({
  controllers: [RegistryHandlers, OpsController],
  providers: [KeyRegistryService, PublishedMark, keySetSignerProvider, operatorTokenFrom(KeyRegistryConfig)],
})
export class KeyRegistryModule {}
