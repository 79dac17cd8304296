import { Global, Module, type DynamicModule, type Provider } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { trustedProxies, type ServiceConfig } from '@swap/config';
import { API_KEY_SCHEME, ErrorBodyDto, PORTAL_SESSION_COOKIE, PORTAL_SESSION_SCHEME } from '@swap/contracts';
import { BusIntake, BusServer, type Bus, type BusServerOptions } from '@swap/messaging';
import { NestPinoLogger, resolveRequestId, type Logger, type ServiceMetrics } from '@swap/observability';
import type { ServiceState } from './admin-server';
import { AllExceptionsFilter } from './errors-filter';
import { answerClientError, frameworkErrorAnswer, installJsonBodies, MAX_PATH_SEGMENT } from './http-edges';
import { trackIdleConnections } from './http-drain';
import { installHttpHooks } from './http-hooks';
import type { slowClientTimeouts } from './http-timeouts';
import { OpenApiDocumentController } from './openapi-document.controller';
import { RouteMethods } from './route-methods';
import type { ServiceDefinition } from './service-definition';
import { createValidationPipe } from './validation';

const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/** The service's Nest application on Fastify, with the platform's HTTP edges, hooks, errors and validation. */
export async function createServiceApp<C extends ServiceConfig>(
  definition: ServiceDefinition<C>,
  config: C,
  context: {
    providers: Provider[];
    timeouts: ReturnType<typeof slowClientTimeouts>;
    state: ServiceState;
    logger: Logger;
    metrics: ServiceMetrics;
  },
): Promise<NestFastifyApplication> {
  const { timeouts, state, logger, metrics } = context;
  const adapter = new FastifyAdapter({
    bodyLimit: DEFAULT_BODY_LIMIT_BYTES,
    // Slow clients: fastify sets the request and keep-alive timeouts on the server itself; Node's options carry the rest.
    // Node would answer a missing Host with an empty 400 of its own: the hooks answer it in the platform's shape.
    http: { ...timeouts, requireHostHeader: false },
    requestTimeout: timeouts.requestTimeout,
    keepAliveTimeout: timeouts.keepAliveTimeout,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => resolveRequestId(req.headers['x-request-id']),
    logger: false,
    // Requests arriving while draining are answered by our hook, in the platform's error shape.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    trustProxy: trustedProxies(config.TRUSTED_PROXIES),
    frameworkErrors: frameworkErrorAnswer(definition.errorBodyFor),
    routerOptions: { maxParamLength: MAX_PATH_SEGMENT },
    clientErrorHandler: answerClientError,
  });
  const nest = await NestFactory.create<NestFastifyApplication>(ServiceRootModule.create(definition.module, context.providers), adapter, {
    logger: new NestPinoLogger(logger),
    bufferLogs: false,
    abortOnError: false,
    // Bodies are parsed by installJsonBodies (JSON only), or not at all (the gateway streams them).
    bodyParser: false,
  });
  try {
    const fastify = nest.getHttpAdapter().getInstance();
    const routes = new RouteMethods();
    routes.watch(fastify);
    trackIdleConnections(fastify.server);
    if (!definition.rawBodies) installJsonBodies(fastify);
    installHttpHooks(fastify, {
      metrics,
      logger,
      isShuttingDown: () => state.shuttingDown,
      isRefusing: () => state.refusingRequests,
      checkInput: !definition.rawBodies,
      errorBodyFor: definition.errorBodyFor,
    });
    nest.useGlobalFilters(new AllExceptionsFilter(logger, routes));
    nest.useGlobalPipes(createValidationPipe({ chainRules: definition.chainRules?.(nest) }));
    if (definition.configure) await definition.configure(nest, config, { logger, metrics });
    return nest;
  } catch (error) {
    await nest.close().catch(() => undefined);
    throw error;
  }
}

/** The bus handlers (@MessagePattern, @EventPattern) served in the service's queue group; its intake pauses with readiness. */
export async function startBusServer(
  nest: NestFastifyApplication,
  bus: Bus,
  options: BusServerOptions & { intake: BusIntake },
): Promise<void> {
  const { intake, ...serverOptions } = options;
  const server = new BusServer(bus, serverOptions);
  intake.add(server);
  nest.connectMicroservice({ strategy: server }, { inheritAppConfig: true });
  await nest.startAllMicroservices();
}

/** The service's own OpenAPI document (the gateway merges every service's into the public one). */
export function serviceOpenApiDocument(
  nest: NestFastifyApplication,
  definition: Pick<ServiceDefinition, 'title' | 'description'>,
): OpenAPIObject {
  return SwaggerModule.createDocument(
    nest,
    new DocumentBuilder()
      .setTitle(definition.title)
      .setDescription(definition.description)
      .setVersion('1')
      .addApiKey(
        {
          type: 'apiKey',
          in: 'header',
          name: 'x-api-key',
          description: 'An API key from the partner portal (svc_…), or a sponsoring key (spk_…) on /v1/sponsorships',
        },
        API_KEY_SCHEME,
      )
      // The partner portal's session (its SESSION_SCHEME, on the routes behind SessionGuard).
      .addCookieAuth(
        PORTAL_SESSION_COOKIE,
        { type: 'apiKey', description: 'The partner portal session, set by sign-up and sign-in (/portal/api/auth)' },
        PORTAL_SESSION_SCHEME,
      )
      .build(),
    // The error shape is part of every service's document, referenced or not: the gateway's merge answers every operation's errors with it.
    { extraModels: [ErrorBodyDto], autoTagControllers: false },
  );
}

@Global()
@Module({})
class ServiceRootModule {
  static create(serviceModule: ServiceDefinition['module'], providers: Provider[]): DynamicModule {
    return {
      module: ServiceRootModule,
      global: true,
      imports: [serviceModule],
      controllers: [OpenApiDocumentController],
      providers,
      exports: providers.map((p) => (typeof p === 'function' ? p : (p as { provide: unknown }).provide)) as DynamicModule['exports'],
    };
  }
}
