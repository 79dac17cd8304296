import type { DynamicModule, Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { BusSettings, CacheSettings, DatabaseSettings, ServiceConfig } from '@swap/config';
import type { ChainRules, ErrorBody, ServiceName } from '@swap/contracts';
import type { PrismaClientLike } from '@swap/persistence';
import type { Logger, ServiceMetrics } from '@swap/observability';

export interface DatabaseUse<C extends PrismaClientLike = PrismaClientLike> {
  schema: string;
  migrationsDir: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  clientClass: new (options: { adapter: any }) => C;
}

/** Everything the kit needs to boot one service; see docs/architecture/runtime.md#a-service-definition. */
export interface ServiceDefinition<C extends ServiceConfig = ServiceConfig> {
  name: ServiceName;
  title: string;
  description: string;
  configClass: new () => C;
  /** Its providers may inject the config class itself. */
  module: Type | DynamicModule;
  uses: ServiceUses<C>;
  configure?: (app: NestFastifyApplication, config: C, context: { logger: Logger; metrics: ServiceMetrics }) => Promise<void> | void;
  rawBodies?: boolean;
  errorBodyFor?: ErrorBodyShaper;
  chainRules?: (app: NestFastifyApplication) => ChainRules;
}

/** A use whose settings the configuration class lacks can only be left out. */
export interface ServiceUses<C> {
  bus?: C extends BusSettings ? boolean : never;
  cache?: C extends CacheSettings ? boolean : never;
  readModels?: C extends CacheSettings ? boolean : never;
  database?: C extends DatabaseSettings ? DatabaseUse : never;
}

export type ErrorBodyShaper = (url: string, body: ErrorBody) => unknown;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyServiceDefinition = ServiceDefinition<any>;
