import { loadConfig } from '@swap/config';
import type { AnyServiceDefinition } from './service-definition';
import { startService, type RunningService, type SharedRuntime } from './start-service';

export function startServiceFromEnv(
  definition: AnyServiceDefinition,
  env: Record<string, string>,
  shared?: SharedRuntime,
): Promise<RunningService> {
  return startService(definition, { config: loadConfig(definition.configClass, env), shared });
}
