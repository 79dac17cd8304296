import { ServiceConfig, IsServiceUrl } from '@swap/config';
import { DefaultAdminPorts, DefaultPorts, type ServiceName } from '@swap/contracts';
import { Type } from 'class-transformer';
import { IsInt, IsString, Max, Min, ValidateBy } from 'class-validator';

const upstream = (service: ServiceName) => `http://127.0.0.1:${DefaultPorts[service]}`;

type UpstreamVariable =
  | 'UPSTREAM_SWAP_GATEWAY_URL'
  | 'UPSTREAM_QUOTE_BUILDER_URL'
  | 'UPSTREAM_RELAY_TRACKER_URL'
  | 'UPSTREAM_ORACLE_CANDLES_URL'
  | 'UPSTREAM_SPONSORSHIP_KEYS_URL'
  | 'UPSTREAM_PARTNER_PORTAL_API_URL';

export function upstreamVariable(service: ServiceName): UpstreamVariable {
  return `UPSTREAM_${service.toUpperCase().replace(/-/g, '_')}_URL` as UpstreamVariable;
}

export function upstreamUrls(value: string): string[] {
  return value.split(',').map((url) => url.trim());
}

/** Replicas, comma-separated: the same address twice is a mistake, not a weight. */
function IsUpstreamList(): PropertyDecorator {
  const rules = [
    IsServiceUrl(['http', 'https'], {
      list: true,
      message: '$property must be an http:// or https:// URL, or a comma-separated list of them',
    }),
    ValidateBy({
      name: 'isDistinctUpstreams',
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string') return false;
          try {
            const origins = upstreamUrls(value).map((url) => new URL(url).origin);
            return new Set(origins).size === origins.length;
          } catch {
            return true; // not URLs: the rule above says so
          }
        },
        defaultMessage: () => '$property names the same upstream more than once',
      },
    }),
  ];
  return (target, property) => {
    for (const rule of rules) rule(target, property);
  };
}

/** Each variable: docs/operators/configuration.md#variables. */
export class ApiGatewayConfig extends ServiceConfig {
  override PORT = DefaultPorts['api-gateway'];
  override ADMIN_PORT = DefaultAdminPorts['api-gateway'];

  @IsUpstreamList()
  UPSTREAM_SWAP_GATEWAY_URL = upstream('swap-gateway');

  @IsUpstreamList()
  UPSTREAM_QUOTE_BUILDER_URL = upstream('quote-builder');

  @IsUpstreamList()
  UPSTREAM_RELAY_TRACKER_URL = upstream('relay-tracker');

  @IsUpstreamList()
  UPSTREAM_ORACLE_CANDLES_URL = upstream('oracle-candles');

  @IsUpstreamList()
  UPSTREAM_SPONSORSHIP_KEYS_URL = upstream('sponsorship-keys');

  @IsUpstreamList()
  UPSTREAM_PARTNER_PORTAL_API_URL = upstream('partner-portal-api');

  @Type(() => Number)
  @Min(100)
  @Max(300_000)
  @IsInt()
  UPSTREAM_TIMEOUT_MS = 10_000;

  @Type(() => Number)
  @Min(1)
  @Max(100_000)
  @IsInt()
  UPSTREAM_CONCURRENCY_PER_CLIENT = 64;

  @Type(() => Number)
  @Min(1)
  @Max(100_000)
  @IsInt()
  STREAMS_PER_CLIENT = 100;

  @Type(() => Number)
  @Min(1_000)
  @Max(600_000)
  @IsInt()
  STREAM_IDLE_TIMEOUT_MS = 45_000;

  @Type(() => Number)
  @Min(1)
  @Max(1_000_000)
  @IsInt()
  STREAM_UPSTREAM_CONNECTIONS = 20_000;

  @Type(() => Number)
  @Min(1_024)
  @Max(64 * 1024 * 1024)
  @IsInt()
  BODY_LIMIT_BYTES = 1024 * 1024;

  @Type(() => Number)
  @Min(1_024)
  @Max(4 * 1024 * 1024 * 1024)
  @IsInt()
  BODY_BUFFER_LIMIT_BYTES = 64 * 1024 * 1024;

  @IsString()
  CORS_ORIGINS = '';
}
