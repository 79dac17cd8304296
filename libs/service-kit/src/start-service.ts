import type { Provider } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Cache } from '@swap/cache';
import { requireOperatorTokenBeyondLoopback, type ServiceConfig } from '@swap/config';
import type { ServiceName } from '@swap/contracts';
import { BusIntake, type Bus } from '@swap/messaging';
import { createLogger, ServiceMetrics, type Logger } from '@swap/observability';
import { startAdminServer, ServiceState } from './admin-server';
import { stopAccepting } from './http-drain';
import { slowClientTimeouts } from './http-timeouts';
import { ReadinessGate } from './readiness-gate';
import { createServiceApp, serviceOpenApiDocument, startBusServer } from './service-app';
import { ServiceConnections, type AnyServiceConfig, type SharedRuntime } from './service-connections';
import type { ServiceDefinition } from './service-definition';
import { CACHE, LOGGER, READ_MODELS, SERVICE_NAME } from './tokens';

export type { SharedRuntime } from './service-connections';

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
  /** What `close` is doing now (undefined before it starts): said if it overruns the shutdown timeout. */
  closingStage(): string | undefined;
}

/**
 * Starts one service: its connections, its Nest application with the platform's HTTP edges,
 * its bus handlers, its OpenAPI document, the public and admin ports, and (in a cluster) the
 * readiness gate; see docs/architecture/runtime.md.
 */
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
  // Refused before anything connects: operator routes beyond loopback need a token.
  if ('OPS_TOKEN' in config) requireOperatorTokenBeyondLoopback(config as AnyServiceConfig & { OPS_TOKEN?: string });
  const shared = options.shared ?? {};
  const logger = createLogger({ service: definition.name, level: config.LOG_LEVEL, destination: shared.logDestination });
  const metrics = new ServiceMetrics(definition.name);
  // What this replica takes of the work it shares with its peers; a service adds its own takers by injecting it.
  const intake = new BusIntake();
  const connections = await ServiceConnections.open(definition, config, shared, logger);
  let app: NestFastifyApplication | undefined;
  try {
    const state = new ServiceState(connections.checks);
    const providers: Provider[] = [
      { provide: definition.configClass, useValue: config },
      { provide: SERVICE_NAME, useValue: definition.name },
      { provide: LOGGER, useValue: logger },
      { provide: ServiceMetrics, useValue: metrics },
      { provide: BusIntake, useValue: intake },
      { provide: ServiceState, useValue: state },
      ...connections.providers,
    ];
    const timeouts = slowClientTimeouts(config);
    app = await createServiceApp(definition, config, { providers, timeouts, state, logger, metrics });
    const bus = connections.bus;
    if (bus) {
      await startBusServer(app, bus, {
        queue: definition.name,
        drainTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
        intake,
        logger,
        metrics,
        requestSignatures: connections.requestSignatures,
      });
    }
    state.openApiDocument = serviceOpenApiDocument(app, definition);

    const port = await listen(app, config);
    // The admin port opens once the public one takes requests, and closes first after the app.
    const admin = await startAdminServer({
      service: definition.name,
      host: config.HOST,
      port: config.ADMIN_PORT,
      state,
      metrics,
      timeouts,
    });
    connections.closeFirst('the admin port', () => admin.close());
    const gate = startReadinessGate(bus, { connections, intake, logger, metrics, state });
    const url = `http://${config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST}:${port}`;
    logger.info(
      { url, adminUrl: admin.url, bus: bus?.kind, database: connections.usesDatabase, cache: definition.uses.cache ?? false },
      `${definition.name} listening`,
    );
    return running(
      { name: definition.name, url, port, adminUrl: admin.url, app, logger },
      { state, gate, connections, drainGraceMs: options.drainGraceMs },
    );
  } catch (error) {
    await app?.close().catch(() => undefined);
    await connections.close();
    throw error;
  }
}

/** Listens on PORT (0: any free port), answering the port it got. */
async function listen(app: NestFastifyApplication, config: ServiceConfig): Promise<number> {
  if (config.ADMIN_PORT !== 0 && config.ADMIN_PORT === config.PORT)
    throw new Error(`ADMIN_PORT must differ from PORT (both ${config.PORT}): probes and metrics never share the public port`);
  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.getHttpAdapter().getInstance().server.address();
  return typeof address === 'object' && address ? address.port : config.PORT;
}

/**
 * In a cluster (NATS) a replica whose database or NATS fails stops taking shared work and its
 * peers answer instead; the embedded default has no peer, so nothing is paused there.
 */
function startReadinessGate(
  bus: Bus | undefined,
  context: { connections: ServiceConnections; intake: BusIntake; logger: Logger; metrics: ServiceMetrics; state: ServiceState },
): ReadinessGate | undefined {
  if (bus?.kind !== 'nats') return undefined;
  const { connections, intake, logger, metrics, state } = context;
  const gate = new ReadinessGate({ checks: connections.checks, intake, logger, metrics });
  state.gate = gate;
  gate.start();
  return gate;
}

/** The running service, whose close is graceful and happens once however often it is asked. */
function running(
  service: Omit<RunningService, 'close' | 'closingStage'>,
  parts: { state: ServiceState; gate?: ReadinessGate; connections: ServiceConnections; drainGraceMs?: number },
): RunningService {
  const { app, logger, name } = service;
  let closing: Promise<void> | undefined;
  let stage: string | undefined;
  return {
    ...service,
    closingStage: () => stage,
    close() {
      closing ??= (async () => {
        parts.state.shuttingDown = true;
        parts.gate?.stop();
        logger.info(`${name} shutting down`);
        // New connections are refused (a gateway retries those on a peer); open ones are served a moment longer, then the app stops.
        stage = 'draining HTTP connections';
        await stopAccepting(app.getHttpAdapter().getInstance().server, parts.drainGraceMs);
        parts.state.refusingRequests = true;
        stage = 'closing the application (requests and bus handlers in flight)';
        await app.close();
        await parts.connections.close(logger, (what) => (stage = what));
        stage = 'stopped';
        logger.info(`${name} stopped`);
        logger.flush();
      })();
      return closing;
    },
  };
}

export type { Cache };
export { CACHE, LOGGER, READ_MODELS };
