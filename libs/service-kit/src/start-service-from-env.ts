import { loadConfig } from '@swap/config';
import type { AnyServiceDefinition } from './service-definition';
import { startService, type RunningService, type SharedRuntime } from './start-service';

/**
 * Starts a service from environment-style variables (validated by its config class) rather
 * than from `process.env`: how the embedded default and tests start services.
 */
export function startServiceFromEnv(
  definition: AnyServiceDefinition,
  env: Record<string, string>,
  shared?: SharedRuntime,
): Promise<RunningService> {
  return startService(definition, { config: loadConfig(definition.configClass, env), shared });
}
