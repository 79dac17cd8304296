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

/** What a configuration mixin (WithBus and the like) extends. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Constructor<T = object> = new (...args: any[]) => T;

// Rules run bottom-up, stopping at the first failure: the type, nearest, speaks first. Variables: docs/operators/configuration.md#variables.
export class ServiceConfig {
  @Type(() => Number)
  @Min(0)
  @Max(65535)
  @IsInt()
  PORT = 0;

  @IsString()
  @MinLength(1)
  HOST = '0.0.0.0';

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

  @IsTrustedProxyList()
  TRUSTED_PROXIES = '';

  @Type(() => Number)
  @Min(100)
  @Max(300_000)
  @IsInt()
  HTTP_HEADERS_TIMEOUT_MS = 10_000;

  @IsNotBelow('HTTP_HEADERS_TIMEOUT_MS')
  @Type(() => Number)
  @Min(100)
  @Max(3_600_000)
  @IsInt()
  HTTP_REQUEST_TIMEOUT_MS = 30_000;

  @Type(() => Number)
  @Min(100)
  @Max(600_000)
  @IsInt()
  HTTP_KEEP_ALIVE_TIMEOUT_MS = 5_000;
}

export function WithBus<B extends Constructor>(Base: B) {
  class BusConfig extends Base {
    @IsServiceUrl(['nats', 'tls'], { list: true })
    NATS_URL = 'nats://127.0.0.1:4222';

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

    // The secrets carry no rule (a broken rule prints the value); the seed is checked in libs/messaging.
    @ValidateIf((c: BusConfig) => c.NATS_USER !== undefined || c.NATS_PASSWORD !== undefined)
    @IsSoleNatsCredential()
    @Matches(/^[A-Za-z0-9_.@-]{1,128}$/, { message: 'NATS_USER must be set with NATS_PASSWORD: 1 to 128 letters, digits or _.@-' })
    NATS_USER?: string = undefined;

    @ValidateIf((c: BusConfig) => c.NATS_USER !== undefined)
    @IsDefined({ message: 'NATS_PASSWORD must be set with NATS_USER' })
    NATS_PASSWORD?: string = undefined;

    @IsOptional()
    @IsString()
    NATS_NKEY_SEED?: string = undefined;

    @IsOptional()
    @IsSoleNatsCredential()
    @IsReadableFile()
    NATS_CREDS_FILE?: string = undefined;

    @IsOptional()
    @IsReadableFile()
    NATS_TLS_CA_FILE?: string = undefined;

    /** `true`: start even where NATS lets anyone in without credentials (a developer's machine, the tests). */
    @IsIn(['true', 'false'], { message: 'NATS_ALLOW_ANONYMOUS must be true or false' })
    NATS_ALLOW_ANONYMOUS: 'true' | 'false' = 'false';

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

export function WithCache<B extends Constructor>(Base: B) {
  class CacheConfig extends Base {
    @IsServiceUrl(['redis', 'rediss'])
    REDIS_URL = 'redis://127.0.0.1:6379';

    @IsOptional()
    @Matches(/^[A-Za-z0-9_.:-]{1,64}$/, { message: 'CACHE_KEY_PREFIX must be 1 to 64 letters, digits or _.:-' })
    CACHE_KEY_PREFIX?: string = undefined;
  }
  return CacheConfig;
}

export function WithChains<B extends Constructor>(Base: B) {
  class ChainsConfig extends Base {
    /** `mainnet` (built in) or the path of a chain profile JSON file. */
    @IsString()
    @MinLength(1)
    CHAIN_PROFILE = 'mainnet';

    @IsOptional()
    @Matches(/^[\w.-]+=https?:\/\/[^,\s]+(,[\w.-]+=https?:\/\/[^,\s]+)*$/, {
      message: 'CHAIN_RPC_URLS must be a list like 0x92.sonic=https://rpc.example,solana=https://rpc.example',
    })
    CHAIN_RPC_URLS?: string = undefined;

    @Type(() => Number)
    @Min(100)
    @Max(60_000)
    @IsInt()
    CHAIN_RPC_TIMEOUT_MS = 5_000;
  }
  return ChainsConfig;
}

export function WithOperatorRoutes<B extends Constructor>(Base: B) {
  class OperatorConfig extends Base {
    @IsOperatorTokens()
    OPS_TOKEN?: string = undefined;
  }
  return OperatorConfig;
}

export type BusSettings = Pick<
  InstanceType<ReturnType<typeof WithBus>>,
  | 'NATS_URL'
  | 'NATS_ALLOW_ANONYMOUS'
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
