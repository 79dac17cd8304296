import { join } from 'node:path';
import type { ServiceDefinition } from '@swap/service-kit';
import { PrismaClient } from './generated/prisma/client';
import { KeyRegistryConfig } from './key-registry.config';
import { KeyRegistryModule } from './key-registry.module';

/** This service's migrations (the build copies them beside the compiled code). */
export const keyRegistryMigrations = join(__dirname, '..', 'prisma', 'migrations');

export const keyRegistry: ServiceDefinition<KeyRegistryConfig> = {
  name: 'key-registry',
  title: 'key-registry',
  description: 'Organisations, portal API keys (hashes only), scopes, suspension and enforcement modes; publishes the active key set.',
  configClass: KeyRegistryConfig,
  module: KeyRegistryModule,
  uses: { bus: true, database: { schema: 'key_registry', migrationsDir: keyRegistryMigrations, clientClass: PrismaClient } },
};
