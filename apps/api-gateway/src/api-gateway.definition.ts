import { serveWebApp, webAppDir, type ServiceDefinition } from '@swap/service-kit';
import { ApiGatewayConfig } from './api-gateway.config';
import { ApiGatewayModule } from './api-gateway.module';
import { createUpstreams, registerProxies } from './proxy/proxy';
import { errorBodyFor } from './proxy/routes';
import { installUpgradeProxy } from './proxy/upgrade';

export { upstreamVariable } from './api-gateway.config';

export const apiGateway: ServiceDefinition<ApiGatewayConfig> = {
  name: 'api-gateway',
  title: 'api-gateway',
  description:
    'The edge: routes /v1/* and /portal/* prefixes to the services, assigns request ids, bounds bodies and upstream time; serves the explorer page (/explorer/).',
  configClass: ApiGatewayConfig,
  module: ApiGatewayModule,
  uses: {},
  rawBodies: true,
  errorBodyFor,
  configure: async (app, config, { logger, metrics }) => {
    if (config.CORS_ORIGINS)
      app.enableCors({ origin: config.CORS_ORIGINS.split(',').map((o) => o.trim()), exposedHeaders: ['x-request-id'] });
    const upstreams = createUpstreams(config);
    await registerProxies(app, config, logger, upstreams);
    installUpgradeProxy(app.getHttpAdapter().getInstance(), config, logger, metrics, upstreams);
    serveWebApp(app.getHttpAdapter().getInstance(), {
      prefix: '/explorer',
      dir: webAppDir(__dirname, 'swap-explorer-web'),
      label: 'The explorer page',
    });
  },
};
