import { Type } from 'class-transformer';
import {
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateBy,
  ValidateIf,
  type ValidationArguments,
} from 'class-validator';
import { accessSync, constants, statSync } from 'node:fs';
import { IsOperatorTokens } from './operator-tokens';
import { IsNotBelow, IsServiceUrl, IsTrustedProxyList } from './validators';

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

  /*
   * Slow clients: a connection is answered 408 and closed when its headers, or its whole
   * request, take longer than this, so a client trickling bytes cannot hold it (nor, at the
   * gateway, the upstream connection its body is streamed on) for ever. Upgraded connections
   * (WebSockets) are not timed.
   */

  /** How long a client may take to send a request's headers. */
  @Type(() => Number)
  @Min(100)
  @Max(300_000)
  @IsInt()
  HTTP_HEADERS_TIMEOUT_MS = 10_000;

  /** How long a client may take to send a whole request, headers and body; at least HTTP_HEADERS_TIMEOUT_MS. */
  @IsNotBelow('HTTP_HEADERS_TIMEOUT_MS')
  @Type(() => Number)
  @Min(100)
  @Max(3_600_000)
  @IsInt()
  HTTP_REQUEST_TIMEOUT_MS = 30_000;

  /** How long a kept-alive connection may wait for its next request before it is closed. */
  @Type(() => Number)
  @Min(100)
  @Max(600_000)
  @IsInt()
  HTTP_KEEP_ALIVE_TIMEOUT_MS = 5_000;
}

/** Services that talk over NATS. */
export function WithBus<B extends Constructor>(Base: B) {
  class BusConfig extends Base {
    @IsServiceUrl(['nats', 'tls'], { list: true })
    NATS_URL = 'nats://127.0.0.1:4222';

    /** Prefix of every subject, to keep deployments sharing one NATS apart (e.g. `staging`). */
    @IsOptional()
    @Matches(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, {
      message: 'NATS_SUBJECT_PREFIX must be dot-separated tokens of letters, digits, _ or -',
    })
    NATS_SUBJECT_PREFIX?: string = undefined;

    @Type(() => Number)
    @Min(50)
    @Max(120_000)
    @IsInt()
    RPC_TIMEOUT_MS = 5_000;

    /*
     * Who this service is to NATS (docs/operators/securing-the-bus.md): one of a user and password, an
     * nkey seed, or a credentials file (JWT); none for a NATS without authorization. The
     * secrets themselves carry no rule (a broken rule prints the value it read): the rules on
     * NATS_USER and the file paths say what is missing or set twice, and the seed's shape is
     * checked where the connection is made (libs/messaging).
     */
    @ValidateIf((c: BusConfig) => c.NATS_USER !== undefined || c.NATS_PASSWORD !== undefined)
    @IsSoleNatsCredential()
    @Matches(/^[A-Za-z0-9_.@-]{1,128}$/, { message: 'NATS_USER must be set with NATS_PASSWORD: 1 to 128 letters, digits or _.@-' })
    NATS_USER?: string = undefined;

    @ValidateIf((c: BusConfig) => c.NATS_USER !== undefined)
    @IsDefined({ message: 'NATS_PASSWORD must be set with NATS_USER' })
    NATS_PASSWORD?: string = undefined;

    /** A user nkey seed (`SU…`), from a Secret: the server holds only its public key. */
    @IsOptional()
    @IsString()
    NATS_NKEY_SEED?: string = undefined;

    /** A NATS credentials file (user JWT and nkey seed), for servers run in operator (JWT) mode. */
    @IsOptional()
    @IsSoleNatsCredential()
    @IsReadableFile()
    NATS_CREDS_FILE?: string = undefined;

    /** The CA that signed the NATS server's certificate; set (or a `tls://` URL), the connection must be TLS. */
    @IsOptional()
    @IsReadableFile()
    NATS_TLS_CA_FILE?: string = undefined;

    /** A client certificate and its key, for a NATS server that verifies clients (mutual TLS). */
    @ValidateIf((c: BusConfig) => c.NATS_TLS_CERT_FILE !== undefined || c.NATS_TLS_KEY_FILE !== undefined)
    @IsReadableFile()
    @IsDefined({ message: 'NATS_TLS_CERT_FILE must be set with NATS_TLS_KEY_FILE' })
    NATS_TLS_CERT_FILE?: string = undefined;

    @ValidateIf((c: BusConfig) => c.NATS_TLS_CERT_FILE !== undefined || c.NATS_TLS_KEY_FILE !== undefined)
    @IsReadableFile()
    @IsDefined({ message: 'NATS_TLS_KEY_FILE must be set with NATS_TLS_CERT_FILE' })
    NATS_TLS_KEY_FILE?: string = undefined;
  }
  return BusConfig;
}

/** A path to a regular file this process can stat (a mounted Secret or ConfigMap key). */
function IsReadableFile(): PropertyDecorator {
  return ValidateBy({
    name: 'isReadableFile',
    validator: {
      validate: (value: unknown) => {
        try {
          if (typeof value !== 'string' || !statSync(value).isFile()) return false;
          accessSync(value, constants.R_OK);
          return true;
        } catch {
          return false;
        }
      },
      defaultMessage: (args?: ValidationArguments) => `${args?.property} must be the path of a readable file`,
    },
  });
}

const NATS_CREDENTIALS = ['NATS_USER', 'NATS_NKEY_SEED', 'NATS_CREDS_FILE'] as const;

/** At most one way to log in to NATS: a user and password, an nkey seed or a credentials file. */
function IsSoleNatsCredential(): PropertyDecorator {
  return ValidateBy({
    name: 'isSoleNatsCredential',
    validator: {
      validate: (_value: unknown, args?: ValidationArguments) =>
        NATS_CREDENTIALS.filter((name) => (args?.object as Record<string, unknown>)[name] !== undefined).length <= 1,
      defaultMessage: () => 'set one NATS credential: NATS_USER with NATS_PASSWORD, NATS_NKEY_SEED, or NATS_CREDS_FILE',
    },
  });
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
    @Matches(/^[\w.-]+=https?:\/\/[^,\s]+(,[\w.-]+=https?:\/\/[^,\s]+)*$/, {
      message: 'CHAIN_RPC_URLS must be a list like 0x92.sonic=https://rpc.example,solana=https://rpc.example',
    })
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
    /**
     * The operators' bearer tokens: one token (its operator is named `operator`) or
     * `name:token` pairs, comma-separated; the name is the actor in audit logs. Required when
     * HOST is beyond loopback; unset, the operator routes answer loopback callers only.
     */
    @IsOperatorTokens()
    OPS_TOKEN?: string = undefined;
  }
  return OperatorConfig;
}

export type BusSettings = Pick<
  InstanceType<ReturnType<typeof WithBus>>,
  | 'NATS_URL'
  | 'NATS_SUBJECT_PREFIX'
  | 'RPC_TIMEOUT_MS'
  | 'NATS_USER'
  | 'NATS_PASSWORD'
  | 'NATS_NKEY_SEED'
  | 'NATS_CREDS_FILE'
  | 'NATS_TLS_CA_FILE'
  | 'NATS_TLS_CERT_FILE'
  | 'NATS_TLS_KEY_FILE'
>;
export type DatabaseSettings = Pick<InstanceType<ReturnType<typeof WithDatabase>>, 'DATABASE_URL' | 'DATABASE_POOL_MAX'>;
export type CacheSettings = Pick<InstanceType<ReturnType<typeof WithCache>>, 'REDIS_URL' | 'CACHE_KEY_PREFIX'>;
