import type { DynamicModule, Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { BusSettings, CacheSettings, DatabaseSettings, ServiceConfig } from '@swap/config';
import type { ChainRules, ErrorBody, ServiceName } from '@swap/contracts';
import type { PrismaClientLike } from '@swap/persistence';
import type { Logger, ServiceMetrics } from '@swap/observability';

/** The tables a service owns: its Prisma client class and its migrations folder. */
export interface DatabaseUse<C extends PrismaClientLike = PrismaClientLike> {
  schema: string;
  migrationsDir: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  clientClass: new (options: { adapter: any }) => C;
}

/**
 * Everything the kit needs to boot one service, in cluster mode (its own process) or in
 * the embedded default (one process for all). A service's folder holds its definition,
 * its module and its capabilities; how it boots is the same for all of them.
 */
export interface ServiceDefinition<C extends ServiceConfig = ServiceConfig> {
  name: ServiceName;
  title: string;
  description: string;
  configClass: new () => C;
  /** The service's own root module. Its providers may inject the config class itself. */
  module: Type | DynamicModule;
  /**
   * What the kit connects for it. Each use needs its settings in the configuration class
   * (WithBus, WithCache, WithDatabase): `cache: true` on a configuration without REDIS_URL
   * does not compile, rather than connecting to a default Redis at boot.
   */
  uses: ServiceUses<C>;
  /** Extra wiring on the HTTP server before routes are registered (the gateway's proxy). */
  configure?: (app: NestFastifyApplication, config: C, context: { logger: Logger; metrics: ServiceMetrics }) => Promise<void> | void;
  /** Leave request bodies unparsed (the gateway streams them through unchanged). */
  rawBodies?: boolean;
  /**
   * How the error bodies the kit writes itself (router refusals, draining) look on a path,
   * where a prefix has a wire format of its own (the gateway: the solver API's). Default:
   * the platform's error shape.
   */
  errorBodyFor?: ErrorBodyShaper;
  /**
   * The chains the service knows, for the body rules that depend on a chain the body names
   * (`@OnChain`): checked in the same pass as the field rules, so a body's problems are
   * answered together. Taken from the started application (a provider of its module).
   */
  chainRules?: (app: NestFastifyApplication) => ChainRules;
}

/** The uses a configuration class allows: a use whose settings it lacks can only be left out. */
export interface ServiceUses<C> {
  bus?: C extends BusSettings ? boolean : never;
  cache?: C extends CacheSettings ? boolean : never;
  /** The read models shared with other services (READ_MODELS): Redis under `<CACHE_KEY_PREFIX>:read-models`. */
  readModels?: C extends CacheSettings ? boolean : never;
  database?: C extends DatabaseSettings ? DatabaseUse : never;
}

/** An error body as written on a path. */
export type ErrorBodyShaper = (url: string, body: ErrorBody) => unknown;

/** A definition of any service, for code that starts several (the embedded default, tests). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyServiceDefinition = ServiceDefinition<any>;
