import { Module } from '@nestjs/common';
import { operatorTokenFrom } from '@swap/key-auth';
import { KeyRegistryConfig } from './key-registry.config';
import { keySetSignerProvider } from './keyset/key-set-signer.provider';
import { KeySetPublisher } from './keyset/key-set-publisher';
import { PublishedMark } from './keyset/published-mark';
import { KeyRegistryOpsController } from './ops/key-registry-ops.controller';
import { KeyRegistryService } from './registry/key-registry.service';
import { RegistryHandlers } from './registry/registry.handlers';
import { UsageRollup } from './usage/usage-rollup';
import { UsageStore } from './usage/usage-store';
import { UsageHandlers } from './usage/usage.handlers';

@Module({
  controllers: [RegistryHandlers, UsageHandlers, KeyRegistryOpsController],
  providers: [
    UsageStore,
    UsageRollup,
    KeyRegistryService,
    KeySetPublisher,
    PublishedMark,
    keySetSignerProvider,
    operatorTokenFrom(KeyRegistryConfig),
  ],
})
export class KeyRegistryModule {}
