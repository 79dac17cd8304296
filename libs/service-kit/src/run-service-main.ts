import { ConfigError, loadConfig, type ServiceConfig } from '@swap/config';
import { stopTracing } from '@swap/observability';
import type { ServiceDefinition } from './service-definition';
import { DRAIN_GRACE_MS } from './http-drain';
import { startService, type RunningService } from './start-service';

/** The whole `main.ts` of a service in cluster mode; see docs/architecture/runtime.md#a-service-definition. */
export async function runServiceMain<C extends ServiceConfig>(definition: ServiceDefinition<C>): Promise<RunningService> {
  let config: C;
  try {
    config = loadConfig(definition.configClass);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${definition.name}: ${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  let service: RunningService;
  try {
    service = await startService(definition, { config, drainGraceMs: processDrainGraceMs(config) });
  } catch (error) {
    // A rule across variables (OPS_TOKEN beside HOST) is a configuration error too.
    if (error instanceof ConfigError) {
      process.stderr.write(`${definition.name}: ${error.message}\n`);
      process.exit(78);
    }
    process.stderr.write(`${definition.name}: failed to start: ${(error as Error).message}\n`);
    process.exit(1);
  }
  stopOnSignals(
    () => service.close(),
    config.SHUTDOWN_TIMEOUT_MS,
    () => `${definition.name} (${service.closingStage() ?? 'not closing'})`,
  );
  return service;
}

/** Clients close idle connections themselves just before the announced keep-alive timeout. */
export function processDrainGraceMs(config: Pick<ServiceConfig, 'HTTP_KEEP_ALIVE_TIMEOUT_MS' | 'SHUTDOWN_TIMEOUT_MS'>): number {
  return Math.max(DRAIN_GRACE_MS, Math.min(config.HTTP_KEEP_ALIVE_TIMEOUT_MS, config.SHUTDOWN_TIMEOUT_MS / 2));
}

export function stopOnSignals(stop: () => Promise<void>, timeoutMs: number, who: () => string): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const timer = setTimeout(() => {
      process.stderr.write(`${who()}: shutdown did not finish within ${timeoutMs} ms after ${signal}; exiting\n`);
      process.exit(1);
    }, timeoutMs + 1_000);
    timer.unref();
    // Spans still batched go out before the exit: within what is left of the timeout, 2 s at most.
    const started = Date.now();
    const exit = (code: number) => {
      const left = timeoutMs + 1_000 - (Date.now() - started) - 200;
      void stopTracing(Math.max(0, Math.min(2_000, left))).then(() => process.exit(code));
    };
    stop().then(
      () => exit(0),
      (error: Error) => {
        process.stderr.write(`shutdown failed: ${error.message}\n`);
        exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}
