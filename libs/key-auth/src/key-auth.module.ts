import { Module, type DynamicModule, type ModuleMetadata } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ServiceMetrics, type Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';
import { ApiKeyGuard } from './api-key.guard';
import { KeySetCache, type KeySetCacheOptions } from './key-set-cache';
import { UsageRecorder, type UsageRecorderOptions } from './usage-recorder';

export interface KeyAuthModuleOptions {
  imports?: ModuleMetadata['imports'];
  inject?: unknown[];
  useFactory: (...deps: never[]) => Omit<KeySetCacheOptions, 'logger' | 'metrics'>;
  /** Counts usage per organisation, key, route and outcome (swap-gateway's portal keys); undefined: not counted. */
  usage?: (...deps: never[]) => Omit<UsageRecorderOptions, 'logger' | 'metrics'> | undefined;
}

@Module({})
export class KeyAuthModule {
  static register(options: KeyAuthModuleOptions): DynamicModule {
    return {
      module: KeyAuthModule,
      imports: options.imports ?? [],
      providers: [
        {
          provide: KeySetCache,
          inject: [LOGGER, ServiceMetrics, ...((options.inject ?? []) as never[])],
          useFactory: (logger: Logger, metrics: ServiceMetrics, ...deps: never[]) =>
            new KeySetCache({ ...options.useFactory(...deps), logger, metrics }),
        },
        ...(options.usage ? [usageProvider(options)] : []),
        { provide: APP_GUARD, useClass: ApiKeyGuard },
      ],
      exports: [KeySetCache],
    };
  }
}

function usageProvider(options: KeyAuthModuleOptions) {
  return {
    provide: UsageRecorder,
    inject: [LOGGER, ServiceMetrics, ...((options.inject ?? []) as never[])],
    useFactory: (logger: Logger, metrics: ServiceMetrics, ...deps: never[]) => {
      const usage = options.usage!(...deps);
      return usage ? new UsageRecorder({ ...usage, logger, metrics }) : undefined;
    },
  };
}
