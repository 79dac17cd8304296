import { join } from 'node:path';
import type { ServiceDefinition } from '@swap/service-kit';
import { PrismaClient } from './generated/prisma/client';
import { SponsorshipKeysConfig } from './sponsorship-keys.config';
import { SponsorshipKeysModule } from './sponsorship-keys.module';

/** This service's migrations (the build copies them beside the compiled code). */
export const sponsorshipKeysMigrations = join(__dirname, '..', 'prisma', 'migrations');

export const sponsorshipKeys: ServiceDefinition<SponsorshipKeysConfig> = {
  name: 'sponsorship-keys',
  title: 'sponsorship-keys',
  description: 'The separate sponsoring-key registry and the sponsoring routes (/v1/sponsorships/*).',
  configClass: SponsorshipKeysConfig,
  module: SponsorshipKeysModule,
  uses: { bus: true, database: { schema: 'sponsorship_keys', migrationsDir: sponsorshipKeysMigrations, clientClass: PrismaClient } },
};
