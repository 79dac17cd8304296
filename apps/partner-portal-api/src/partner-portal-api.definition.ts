import fastifyCookie from '@fastify/cookie';
import { ownDatabase, type ServiceDefinition } from '@swap/service-kit';
import { PrismaClient } from './generated/prisma/client';
import { PartnerPortalApiConfig } from './partner-portal-api.config';
import { PartnerPortalApiModule } from './partner-portal-api.module';
import { portalUiDir, servePortalUi } from './ui/portal-ui';

export const partnerPortalApi: ServiceDefinition<PartnerPortalApiConfig> = {
  name: 'partner-portal-api',
  title: 'partner-portal-api',
  description: 'Portal users, memberships and roles, sessions, and key management through key-registry (/portal/*).',
  configClass: PartnerPortalApiConfig,
  module: PartnerPortalApiModule,
  uses: { bus: true, cache: true, database: ownDatabase('partner-portal-api', __dirname, PrismaClient) },
  configure: async (app) => {
    await app.register(fastifyCookie as never);
    servePortalUi(app.getHttpAdapter().getInstance(), portalUiDir(__dirname));
  },
};
