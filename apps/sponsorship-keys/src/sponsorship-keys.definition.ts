import { ownDatabase, type ServiceDefinition } from '@swap/service-kit';
import { PrismaClient } from './generated/prisma/client';
import { SponsorshipKeysConfig } from './sponsorship-keys.config';
import { SponsorshipKeysModule } from './sponsorship-keys.module';

export const sponsorshipKeys: ServiceDefinition<SponsorshipKeysConfig> = {
  name: 'sponsorship-keys',
  title: 'sponsorship-keys',
  description: 'The separate sponsoring-key store and the sponsoring routes (/v1/sponsorships/*).',
  configClass: SponsorshipKeysConfig,
  module: SponsorshipKeysModule,
  uses: { bus: true, database: ownDatabase('sponsorship-keys', __dirname, PrismaClient) },
};
