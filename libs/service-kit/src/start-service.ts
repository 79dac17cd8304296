import { Global, Module, type DynamicModule, type Provider } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { RedisCache, RedisReadModelStore, TieredCache, type Cache, type ReadModelStore } from '@swap/cache';
import {
  requireOperatorTokenBeyondLoopback,
  trustedProxies,
  type BusSettings,
  type CacheSettings,
  type DatabaseSettings,
  type ServiceConfig,
} from '@swap/config';
import { API_KEY_SCHEME, ErrorBodyDto, type ServiceName } from '@swap/contracts';
import { BusIntake, BusServer, MessagingClient, NatsBus, natsBusOptions, type Bus } from '@swap/messaging';
import { createLogger, NestPinoLogger, resolveRequestId, ServiceMetrics, type DependencyCheck, type Logger } from '@swap/observability';
import { createPrismaClient, type DatabaseHandle, type PrismaClientLike } from '@swap/persistence';
import type { DestinationStream } from 'pino';
import { AllExceptionsFilter } from './errors-filter';
import { answerClientError, frameworkErrorAnswer, installJsonBodies, MAX_PATH_SEGMENT } from './http-edges';
import { installHttpHooks } from './http-hooks';
import { startAdminServer, ServiceState } from './admin-server';
import { stopAccepting, trackIdleConnections } from './http-drain';
import { slowClientTimeouts } from './http-timeouts';
import { ReadinessGate } from './readiness-gate';
import { OpenApiDocumentController } from './openapi-document.controller';
import type { ServiceDefinition } from './service-definition';
import { CACHE, DATABASE_POOL, LOGGER, READ_MODELS, SERVICE_NAME } from './tokens';
import { createValidationPipe } from './validation';

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/** Pieces the embedded default shares between services instead of connecting to servers. */
export interface SharedRuntime {
  bus?: Bus;
  cache?: (namespace: string) => Cache;
  /** One store for every service of the process (the read models are shared between services). */
  readModels?: ReadModelStore;
  databaseUrl?: string;
  logDestination?: DestinationStream;
}

export interface RunningService {
  name: ServiceName;
  url: string;
  port: number;
  /** Where /healthz, /readyz and /metrics answer (ADMIN_PORT). */
  adminUrl: string;
  app: NestFastifyApplication;
  logger: Logger;
  /** Graceful: stop accepting, finish in-flight requests and messages, close connections. */
  close(): Promise<void>;
}

type AnyServiceConfig = ServiceConfig & Partial<BusSettings & CacheSettings & DatabaseSettings>;

export async function startService<C extends ServiceConfig>(
  definition: ServiceDefinition<C>,
  options: {
    config: C;
    shared?: SharedRuntime;
    /** How long a stop keeps serving the connections already open (see `stopAccepting`). */
    drainGraceMs?: number;
  },
): Promise<RunningService> {
  const config = options.config as C & AnyServiceConfig;
  // A service with operator routes (its configuration has OPS_TOKEN) refuses to listen beyond
  // loopback without a token, before it connects to anything.
  if ('OPS_TOKEN' in config) requireOperatorTokenBeyondLoopback(config as AnyServiceConfig & { OPS_TOKEN?: string });
  const shared = options.shared ?? {};
  const logger = createLogger({ service: definition.name, level: config.LOG_LEVEL, destination: shared.logDestination });
  const metrics = new ServiceMetrics(definition.name);
  const checks: DependencyCheck[] = [];
  // What this replica takes of the work it shares with its peers; a service adds its own
  // takers (a work queue) by injecting it.
  const intake = new BusIntake();
  // Connections close in the order they opened (bus, cache, database), after the app and its admin port.
  const closers: (() => Promise<void>)[] = [];
  let app: NestFastifyApplication | undefined;
  const providers: Provider[] = [
    { provide: definition.configClass, useValue: config },
    { provide: SERVICE_NAME, useValue: definition.name },
    { provide: LOGGER, useValue: logger },
    { provide: ServiceMetrics, useValue: metrics },
    { provide: BusIntake, useValue: intake },
  ];

  try {
    let bus: Bus | undefined;
    if (definition.uses.bus) {
      if (shared.bus) bus = shared.bus;
      else {
        const nats = await NatsBus.connect(natsBusOptions(config, definition.name, logger));
        closers.push(() => nats.close());
        bus = nats;
      }
      const busRef = bus;
      checks.push({ name: bus.kind === 'nats' ? 'nats' : 'bus', check: () => busRef.ping() });
      providers.push({
        provide: MessagingClient,
        useValue: new MessagingClient(bus, { timeoutMs: config.RPC_TIMEOUT_MS ?? 5_000, logger }),
      });
    }

    if (definition.uses.cache) {
      let cache: Cache;
      const namespace = config.CACHE_KEY_PREFIX ?? definition.name;
      if (shared.cache) cache = shared.cache(namespace);
      else {
        const redis = new RedisCache({ url: config.REDIS_URL!, namespace });
        await redis.connect().catch((error: Error) => logger.warn({ err: error }, 'Redis unreachable at start; readiness reports it'));
        // A hot key is answered from process memory for up to a second before Redis is asked again.
        const tiered = new TieredCache(redis, { namespace });
        closers.push(() => tiered.close());
        cache = tiered;
      }
      // Every use of the cache works without it (a miss, an uncounted limit): down is reported, not fatal.
      checks.push({ name: cache.kind === 'redis' ? 'redis' : 'cache', check: () => cache.ping(), optional: true });
      providers.push({ provide: CACHE, useValue: cache });
    }

    if (definition.uses.readModels) {
      let store: ReadModelStore;
      if (shared.readModels) store = shared.readModels;
      else {
        const redis = new RedisReadModelStore({ url: config.REDIS_URL!, namespace: readModelNamespace(config.CACHE_KEY_PREFIX) });
        await redis.connect().catch((error: Error) => logger.warn({ err: error }, 'Redis unreachable at start; readiness reports it'));
        closers.push(() => redis.close());
        store = redis;
      }
      // Readers fall back to the writer, writers keep the database the truth: down is reported, not fatal.
      checks.push({ name: 'read-models', check: () => store.ping(), optional: true });
      providers.push({ provide: READ_MODELS, useValue: store });
    }

    const database = definition.uses.database;
    if (database) {
      const handle: DatabaseHandle<PrismaClientLike> = createPrismaClient(database.clientClass, {
        url: shared.databaseUrl ?? config.DATABASE_URL!,
        schema: database.schema,
        poolMax: config.DATABASE_POOL_MAX,
      });
      closers.push(() => handle.close());
      checks.push({ name: 'postgresql', check: () => handle.ping() });
      providers.push({ provide: database.clientClass, useValue: handle.client }, { provide: DATABASE_POOL, useValue: handle.pool });
    }

    const state = new ServiceState(checks);
    providers.push({ provide: ServiceState, useValue: state });

    const timeouts = slowClientTimeouts(config);
    const adapter = new FastifyAdapter({
      bodyLimit: DEFAULT_BODY_LIMIT_BYTES,
      // Slow clients: headers, the whole request and idle keep-alive are bounded (fastify sets
      // the last two on the server itself; Node's options carry the rest).
      http: timeouts,
      requestTimeout: timeouts.requestTimeout,
      keepAliveTimeout: timeouts.keepAliveTimeout,
      genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => resolveRequestId(req.headers['x-request-id']),
      logger: false,
      // Requests arriving while draining are answered by our hook, in the platform's error shape.
      return503OnClosing: false,
      forceCloseConnections: 'idle',
      // request.ip: the connection's peer, or the client a trusted proxy names in X-Forwarded-For.
      trustProxy: trustedProxies(config.TRUSTED_PROXIES),
      // Router and parser refusals in the error shape, like every other error.
      frameworkErrors: frameworkErrorAnswer(definition.errorBodyFor),
      routerOptions: { maxParamLength: MAX_PATH_SEGMENT },
      clientErrorHandler: answerClientError,
    });
    const nest = await NestFactory.create<NestFastifyApplication>(ServiceRootModule.create(definition.module, providers), adapter, {
      logger: new NestPinoLogger(logger),
      bufferLogs: false,
      abortOnError: false,
      // Bodies are parsed by installJsonBodies (JSON only), or not at all (the gateway streams them).
      bodyParser: false,
    });
    app = nest;

    const fastify = nest.getHttpAdapter().getInstance();
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
    nest.useGlobalFilters(new AllExceptionsFilter(logger));
    nest.useGlobalPipes(createValidationPipe({ chainRules: definition.chainRules?.(nest) }));
    if (definition.configure) await definition.configure(nest, config, { logger, metrics });

    if (bus) {
      const server = new BusServer(bus, { queue: definition.name, metrics, logger, drainTimeoutMs: config.SHUTDOWN_TIMEOUT_MS });
      intake.add(server);
      nest.connectMicroservice({ strategy: server }, { inheritAppConfig: true });
      await nest.startAllMicroservices();
    }

    state.openApiDocument = SwaggerModule.createDocument(
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
          'portal_session',
          { type: 'apiKey', description: 'The partner portal session, set by sign-up and sign-in (/portal/api/auth)' },
          'portalSession',
        )
        .build(),
      // The error shape is part of every service's document, referenced or not: the gateway's merge answers every operation's errors with it.
      { extraModels: [ErrorBodyDto], autoTagControllers: false },
    );

    if (config.ADMIN_PORT !== 0 && config.ADMIN_PORT === config.PORT)
      throw new Error(`ADMIN_PORT must differ from PORT (both ${config.PORT}): probes and metrics never share the public port`);
    await nest.listen({ port: config.PORT, host: config.HOST });
    // Probes find the admin port once the public one takes requests; it closes first after the
    // app (readiness answers 503 shutting down until the last request has drained).
    const admin = await startAdminServer({
      service: definition.name,
      host: config.HOST,
      port: config.ADMIN_PORT,
      state,
      metrics,
      timeouts,
    });
    closers.unshift(() => admin.close());
    // Replicas share bus work only in a cluster (NATS): there a replica whose database or
    // NATS fails stops taking it, and its peers answer instead. The embedded default runs one
    // of each service in one process: no peer would take the work, so nothing is paused.
    let gate: ReadinessGate | undefined;
    if (bus?.kind === 'nats') {
      gate = new ReadinessGate({ checks, intake, logger, metrics });
      state.gate = gate;
      gate.start();
    }
    const address = fastify.server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
    const url = `http://${host}:${port}`;
    logger.info(
      { url, adminUrl: admin.url, bus: bus?.kind, database: Boolean(database), cache: definition.uses.cache ?? false },
      `${definition.name} listening`,
    );

    let closing: Promise<void> | undefined;
    return {
      name: definition.name,
      url,
      port,
      adminUrl: admin.url,
      app: nest,
      logger,
      close() {
        closing ??= (async () => {
          state.shuttingDown = true;
          gate?.stop();
          logger.info(`${definition.name} shutting down`);
          // New connections are refused from now on (a gateway retries those on a peer); the
          // ones open are served a moment longer, then the app stops: its destroy hooks, the
          // HTTP requests still running, the bus handlers (BusServer drains), connections.
          await stopAccepting(fastify.server, options.drainGraceMs);
          state.refusingRequests = true;
          await nest.close();
          for (const close of closers) await close().catch((error: Error) => logger.warn({ err: error }, 'error while closing'));
          logger.info(`${definition.name} stopped`);
          logger.flush();
        })();
        return closing;
      },
    };
  } catch (error) {
    await app?.close().catch(() => undefined);
    for (const close of closers) await close().catch(() => undefined);
    throw error;
  }
}

/** Where the read models live: one namespace for every service of a deployment (CACHE_KEY_PREFIX, when set, scopes it). */
export function readModelNamespace(prefix: string | undefined): string {
  return prefix ? `${prefix}:read-models` : 'read-models';
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

export type { Cache };
export { CACHE, LOGGER, READ_MODELS };
