import type { ServiceDefinition } from '@swap/service-kit';
import { PartnerPortalApiConfig } from './partner-portal-api.config';
import { PartnerPortalApiModule } from './partner-portal-api.module';

export const partnerPortalApi: ServiceDefinition<PartnerPortalApiConfig> = {
  name: 'partner-portal-api',
  title: 'partner-portal-api',
  description: 'Portal users, memberships and roles, sessions, and key management through key-registry (/portal/*).',
  configClass: PartnerPortalApiConfig,
  module: PartnerPortalApiModule,
  uses: { bus: true },
};
