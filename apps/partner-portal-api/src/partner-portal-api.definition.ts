import fastifyCookie from '@fastify/cookie';
import { ownDatabase, serveWebApp, webAppDir, type ServiceDefinition } from '@swap/service-kit';
import { PrismaClient } from './generated/prisma/client';
import { PartnerPortalApiConfig } from './partner-portal-api.config';
import { PartnerPortalApiModule } from './partner-portal-api.module';

export const partnerPortalApi: ServiceDefinition<PartnerPortalApiConfig> = {
  name: 'partner-portal-api',
  title: 'partner-portal-api',
  description: 'Portal users, memberships and roles, sessions, and key management through key-registry (/portal/*).',
  configClass: PartnerPortalApiConfig,
  module: PartnerPortalApiModule,
  uses: { bus: true, cache: true, database: ownDatabase('partner-portal-api', __dirname, PrismaClient) },
  configure: async (app) => {
    await app.register(fastifyCookie as never);
    serveWebApp(app.getHttpAdapter().getInstance(), {
      prefix: '/portal',
      dir: webAppDir(__dirname, 'partner-portal-web'),
      label: 'The portal UI',
      reserved: 'api',
    });
  },
};
