import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';
import { IsServiceUrl, IsTrustedProxyList } from './validators';

export const LogLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LogLevels)[number];

/* eslint-disable @typescript-eslint/no-explicit-any */
type Constructor<T = object> = new (...args: any[]) => T;

/*
 * Rules run bottom-up and stop at the first failure, so the decorator nearest a property
 * (its type) speaks first: `PORT=abc` is "must be an integer", not "must not exceed 65535".
 */

/** What every service reads: where it listens, how it logs, how long it drains on SIGTERM. */
export class ServiceConfig {
  @Type(() => Number)
  @Min(0)
  @Max(65535)
  @IsInt()
  PORT = 0;

  @IsString()
  @MinLength(1)
  HOST = '0.0.0.0';

  /**
   * Where `/healthz`, `/readyz` and `/metrics` answer: a port of their own, never the one
   * that serves clients (0: any free port, for tests and the embedded default).
   */
  @Type(() => Number)
  @Min(0)
  @Max(65535)
  @IsInt()
  ADMIN_PORT = 9090;

  @IsIn(LogLevels)
  LOG_LEVEL: LogLevel = 'info';

  @Type(() => Number)
  @Min(0)
  @Max(300_000)
  @IsInt()
  SHUTDOWN_TIMEOUT_MS = 10_000;

  /**
   * Proxies whose `X-Forwarded-For` is believed when telling who the client is: IPs, CIDR
   * ranges or loopback/linklocal/uniquelocal, comma-separated. Empty (the default): the
   * client is the connection's peer, whatever the header says.
   */
  @IsTrustedProxyList()
  TRUSTED_PROXIES = '';
}

/** Services that talk over NATS. */
export function WithBus<B extends Constructor>(Base: B) {
  class BusConfig extends Base {
    @IsServiceUrl(['nats', 'tls'], { list: true })
    NATS_URL = 'nats://127.0.0.1:4222';

    /** Prefix of every subject, to keep deployments sharing one NATS apart (e.g. `staging`). */
    @IsOptional()
    @Matches(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, { message: 'NATS_SUBJECT_PREFIX must be dot-separated tokens of letters, digits, _ or -' })
    NATS_SUBJECT_PREFIX?: string = undefined;

    @Type(() => Number)
    @Min(50)
    @Max(120_000)
    @IsInt()
    RPC_TIMEOUT_MS = 5_000;
  }
  return BusConfig;
}

/** Services that own tables in PostgreSQL (one schema per service). */
export function WithDatabase<B extends Constructor>(Base: B) {
  class DatabaseConfig extends Base {
    @IsServiceUrl(['postgres', 'postgresql'])
    DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/swap_platform';

    @Type(() => Number)
    @Min(1)
    @Max(200)
    @IsInt()
    DATABASE_POOL_MAX = 10;
  }
  return DatabaseConfig;
}

/** Services that cache in Redis. */
export function WithCache<B extends Constructor>(Base: B) {
  class CacheConfig extends Base {
    @IsServiceUrl(['redis', 'rediss'])
    REDIS_URL = 'redis://127.0.0.1:6379';

    /** Prefix of every key this service writes (default: the service name). */
    @IsOptional()
    @Matches(/^[A-Za-z0-9_.:-]{1,64}$/, { message: 'CACHE_KEY_PREFIX must be 1 to 64 letters, digits or _.:-' })
    CACHE_KEY_PREFIX?: string = undefined;
  }
  return CacheConfig;
}

/** Services that read chains: the chain profile, the deployment's RPC endpoints, their time limit. */
export function WithChains<B extends Constructor>(Base: B) {
  class ChainsConfig extends Base {
    /** `mainnet` (built in) or the path of a chain profile JSON file (the devnet writes one). */
    @IsString()
    @MinLength(1)
    CHAIN_PROFILE = 'mainnet';

    /**
     * RPC endpoints by chain key, over the profile's: `0x92.sonic=https://…,solana=https://…`
     * (the mainnet profile names none: a deployment brings its providers).
     */
    @IsOptional()
    @Matches(/^[\w.-]+=https?:\/\/[^,\s]+(,[\w.-]+=https?:\/\/[^,\s]+)*$/, { message: 'CHAIN_RPC_URLS must be a list like 0x92.sonic=https://rpc.example,solana=https://rpc.example' })
    CHAIN_RPC_URLS?: string = undefined;

    /** How long a chain RPC call may take before it counts as failed. */
    @Type(() => Number)
    @Min(100)
    @Max(60_000)
    @IsInt()
    CHAIN_RPC_TIMEOUT_MS = 5_000;
  }
  return ChainsConfig;
}

/** Services with operator routes (/ops/* on their own port, never behind the gateway). */
export function WithOperatorRoutes<B extends Constructor>(Base: B) {
  class OperatorConfig extends Base {
    /** Bearer token of the operator routes; unset, they answer loopback callers only. */
    @IsOptional()
    @MinLength(16)
    OPS_TOKEN?: string = undefined;
  }
  return OperatorConfig;
}

export type BusSettings = Pick<InstanceType<ReturnType<typeof WithBus>>, 'NATS_URL' | 'NATS_SUBJECT_PREFIX' | 'RPC_TIMEOUT_MS'>;
export type DatabaseSettings = Pick<InstanceType<ReturnType<typeof WithDatabase>>, 'DATABASE_URL' | 'DATABASE_POOL_MAX'>;
export type CacheSettings = Pick<InstanceType<ReturnType<typeof WithCache>>, 'REDIS_URL' | 'CACHE_KEY_PREFIX'>;
