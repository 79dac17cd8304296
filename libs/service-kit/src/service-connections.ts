import type { Provider } from '@nestjs/common';
import { FallbackCounter, RedisCache, RedisReadModelStore, TieredCache, type Cache, type ReadModelStore } from '@swap/cache';
import { ConfigError, redactUrl, type BusSettings, type CacheSettings, type DatabaseSettings, type ServiceConfig } from '@swap/config';
import {
  MessagingClient,
  NatsBus,
  natsBusOptions,
  parsePublicKeys,
  parseSigningKey,
  RequestSignatureCheck,
  RequestSigner,
  SigningKeys,
  type Bus,
  type PublicKeyVariable,
  type SigningKeyVariable,
} from '@swap/messaging';
import type { DependencyCheck, Logger } from '@swap/observability';
import { createPrismaClient, type DatabaseHandle, type PrismaClientLike } from '@swap/persistence';
import type { DatabaseUse } from './service-definition';
import { SignedRequests, type RequestSigningPurpose, type ServiceName } from '@swap/contracts';
import type { DestinationStream } from 'pino';
import { CACHE, DATABASE_POOL, READ_MODELS } from './tokens';

type RequestSigningPrefix = (typeof SigningKeys)[RequestSigningPurpose]['prefix'];
type RequestSigningSettings = Record<SigningKeyVariable<RequestSigningPrefix> | PublicKeyVariable<RequestSigningPrefix>, string>;
const REQUEST_SIGNING_PURPOSES: readonly RequestSigningPurpose[] = [...new Set(SignedRequests.values())];

export type AnyServiceConfig = ServiceConfig & Partial<BusSettings & CacheSettings & DatabaseSettings & RequestSigningSettings>;

/** What of a service definition its connections need: its name and what it uses. */
export interface ConnectionNeeds {
  name: ServiceName;
  uses: { bus?: boolean; cache?: boolean; readModels?: boolean; database?: DatabaseUse };
}

/** Pieces the embedded default shares between services instead of connecting to servers. */
export interface SharedRuntime {
  bus?: Bus;
  cache?: (namespace: string) => Cache;
  /** One store for every service of the process (the read models are shared between services). */
  readModels?: ReadModelStore;
  databaseUrl?: string;
  logDestination?: DestinationStream;
}

/** Where the read models live: one namespace for every service of a deployment (CACHE_KEY_PREFIX, when set, scopes it). */
function readModelNamespace(prefix: string | undefined): string {
  return prefix ? `${prefix}:read-models` : 'read-models';
}

/**
 * A service's connections (bus, cache, read models, database; each only if its definition
 * uses it, shared ones in the embedded default): the providers they give its module, their
 * readiness checks, and their closing, in the order they opened.
 */
export class ServiceConnections {
  readonly providers: Provider[] = [];
  readonly checks: DependencyCheck[] = [];
  bus?: Bus;
  readonly requestSignatures: Partial<Record<RequestSigningPurpose, RequestSignatureCheck>> = {};
  private readonly closers: { what: string; close: () => Promise<void> }[] = [];

  private constructor(
    private readonly definition: ConnectionNeeds,
    private readonly config: AnyServiceConfig,
    private readonly shared: SharedRuntime,
    private readonly logger: Logger,
  ) {}

  static async open(
    definition: ConnectionNeeds,
    config: AnyServiceConfig,
    shared: SharedRuntime,
    logger: Logger,
  ): Promise<ServiceConnections> {
    const connections = new ServiceConnections(definition, config, shared, logger);
    try {
      await connections.connectBus();
      await connections.connectCache();
      await connections.connectReadModels();
      connections.connectDatabase();
      return connections;
    } catch (error) {
      await connections.close();
      throw error;
    }
  }

  get usesDatabase(): boolean {
    return Boolean(this.definition.uses.database);
  }

  /** Closed before the connections (the admin port: readiness answers until the app has drained). */
  closeFirst(what: string, close: () => Promise<void>): void {
    this.closers.unshift({ what, close });
  }

  /** Closes each in turn (`closing` told which); a failure is logged (when a logger is given) and the rest still close. */
  async close(logger?: Logger, closing?: (what: string) => void): Promise<void> {
    for (const { what, close } of this.closers) {
      closing?.(`closing ${what}`);
      await close().catch((error: Error) => logger?.warn({ err: error }, `error while closing ${what}`));
    }
  }

  private async connectBus(): Promise<void> {
    if (!this.definition.uses.bus) return;
    let bus = this.shared.bus;
    if (!bus) {
      const options = natsBusOptions(this.config, this.definition.name, this.logger);
      const nats = await NatsBus.connect(options);
      this.closers.push({ what: 'NATS', close: () => nats.close() });
      bus = nats;
      if (this.config.NATS_ALLOW_ANONYMOUS !== 'true' && (await NatsBus.acceptsAnonymous(options))) {
        throw new ConfigError([
          `NATS at ${redactUrl(String(this.config.NATS_URL))} lets clients in without credentials: anyone who reaches it could publish as any service ` +
            '(docs/operators/securing-the-bus.md). Give NATS its authorization and this service its credentials, or set ' +
            'NATS_ALLOW_ANONYMOUS=true where nothing else can reach that server (a developer machine, tests)',
        ]);
      }
    }
    this.bus = bus;
    this.checks.push({ name: bus.kind === 'nats' ? 'nats' : 'bus', check: () => bus.ping() });
    const signers: Partial<Record<RequestSigningPurpose, RequestSigner>> = {};
    for (const purpose of REQUEST_SIGNING_PURPOSES) {
      const { prefix, signer } = SigningKeys[purpose];
      const signingKey = this.config[`${prefix}_SIGNING_KEY`];
      const publicKey = this.config[`${prefix}_PUBLIC_KEY`];
      if (publicKey) this.requestSignatures[purpose] = new RequestSignatureCheck(parsePublicKeys(publicKey), signer);
      if (signingKey) signers[purpose] = new RequestSigner(parseSigningKey(signingKey));
    }
    this.providers.push({
      provide: MessagingClient,
      useValue: new MessagingClient(bus, { timeoutMs: this.config.RPC_TIMEOUT_MS ?? 5_000, logger: this.logger, signers }),
    });
  }

  private async connectCache(): Promise<void> {
    if (!this.definition.uses.cache) {
      // Its replicas would each remember only the nonces they served.
      if (Object.keys(this.requestSignatures).length)
        throw new Error(`${this.definition.name} checks signed requests: its definition must use a cache to share their nonces`);
      return;
    }
    const namespace = this.config.CACHE_KEY_PREFIX ?? this.definition.name;
    let cache: Cache;
    if (this.shared.cache) cache = this.shared.cache(namespace);
    else {
      const redis = new RedisCache({ url: this.config.REDIS_URL!, namespace });
      await redis.connect().catch((error: Error) => this.logger.warn({ err: error }, 'Redis unreachable at start; readiness reports it'));
      // A hot key is answered from process memory for up to a second before Redis is asked again.
      const tiered = new TieredCache(redis, { namespace });
      this.closers.push({ what: 'the Redis cache', close: () => tiered.close() });
      cache = tiered;
    }
    // Every use of the cache works without it (a miss, an uncounted limit): down is reported, not fatal.
    this.checks.push({ name: cache.kind === 'redis' ? 'redis' : 'cache', check: () => cache.ping(), optional: true });
    this.providers.push({ provide: CACHE, useValue: cache });
    const nonces = new FallbackCounter(cache, (error) =>
      this.logger.warn(
        { err: error },
        "signed requests' nonces not shared: the cache did not answer; this replica's memory alone checks them",
      ),
    );
    for (const check of Object.values(this.requestSignatures)) check.shareNoncesThrough(nonces);
  }

  private async connectReadModels(): Promise<void> {
    if (!this.definition.uses.readModels) return;
    let store: ReadModelStore;
    if (this.shared.readModels) store = this.shared.readModels;
    else {
      const redis = new RedisReadModelStore({ url: this.config.REDIS_URL!, namespace: readModelNamespace(this.config.CACHE_KEY_PREFIX) });
      await redis.connect().catch((error: Error) => this.logger.warn({ err: error }, 'Redis unreachable at start; readiness reports it'));
      this.closers.push({ what: 'the Redis read models', close: () => redis.close() });
      store = redis;
    }
    // Readers fall back to the writer, writers keep the database the truth: down is reported, not fatal.
    this.checks.push({ name: 'read-models', check: () => store.ping(), optional: true });
    this.providers.push({ provide: READ_MODELS, useValue: store });
  }

  private connectDatabase(): void {
    const database = this.definition.uses.database;
    if (!database) return;
    const handle: DatabaseHandle<PrismaClientLike> = createPrismaClient(database.clientClass, {
      url: this.shared.databaseUrl ?? this.config.DATABASE_URL!,
      schema: database.schema,
      poolMax: this.config.DATABASE_POOL_MAX,
    });
    this.closers.push({ what: 'PostgreSQL', close: () => handle.close() });
    this.checks.push({ name: 'postgresql', check: () => handle.ping() });
    this.providers.push({ provide: database.clientClass, useValue: handle.client }, { provide: DATABASE_POOL, useValue: handle.pool });
  }
}
