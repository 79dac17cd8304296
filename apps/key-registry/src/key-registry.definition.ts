import { ownDatabase, type ServiceDefinition } from '@swap/service-kit';
import { PrismaClient } from './generated/prisma/client';
import { KeyRegistryConfig } from './key-registry.config';
import { KeyRegistryModule } from './key-registry.module';

/** Where key-registry keeps the mark of the key set it announced (in its cache namespace); tests clean it up. */
export { PUBLISHED_MARK_KEY } from './keyset/published-mark';
export { UsageStore } from './usage/usage-store';

export const keyRegistry: ServiceDefinition<KeyRegistryConfig> = {
  name: 'key-registry',
  title: 'key-registry',
  description: 'Organisations, portal API keys (hashes only), scopes, suspension and enforcement modes; publishes the active key set.',
  configClass: KeyRegistryConfig,
  module: KeyRegistryModule,
  uses: { bus: true, cache: true, database: ownDatabase('key-registry', __dirname, PrismaClient) },
};
