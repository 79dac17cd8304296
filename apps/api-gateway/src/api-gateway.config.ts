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

/** The variable holding a service's address: `swap-gateway` → `UPSTREAM_SWAP_GATEWAY_URL`. */
export function upstreamVariable(service: ServiceName): UpstreamVariable {
  return `UPSTREAM_${service.toUpperCase().replace(/-/g, '_')}_URL` as UpstreamVariable;
}

/** The URLs of one service's replicas (or of its one Service address) in an UPSTREAM_* variable. */
export function upstreamUrls(value: string): string[] {
  return value.split(',').map((url) => url.trim());
}

/**
 * One http(s) URL, or several comma-separated (the service's replicas: requests are balanced
 * over them, and one whose connection is refused goes to another). The same address twice is
 * a mistake, not a weight.
 */
function IsUpstreamList(): PropertyDecorator {
  // Registered in this order, checked in this order (stopping at the first failure): every item
  // an http(s) URL, then no two the same.
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

  /** How long an upstream may take to start answering before the gateway gives up with 504. */
  @Type(() => Number)
  @Min(100)
  @Max(300_000)
  @IsInt()
  UPSTREAM_TIMEOUT_MS = 10_000;

  /**
   * Proxied requests one client address may have in flight at once (each holds an upstream
   * connection while its body arrives); more are answered 429. The address is the peer's, or
   * the client a TRUSTED_PROXIES peer names: behind a load balancer that list must name it,
   * or every client shares the balancer's address and this bound.
   */
  @Type(() => Number)
  @Min(1)
  @Max(100_000)
  @IsInt()
  UPSTREAM_CONCURRENCY_PER_CLIENT = 64;

  /**
   * Status streams (GET /v1/swaps/submit-tx/events) one client address may hold open at
   * once, apart from UPSTREAM_CONCURRENCY_PER_CLIENT (a stream lasts until its swap ends);
   * more are answered 429.
   */
  @Type(() => Number)
  @Min(1)
  @Max(100_000)
  @IsInt()
  STREAMS_PER_CLIENT = 100;

  /**
   * A status stream silent this long is closed (its upstream sends a comment every 15 s, so
   * only a stuck one is). Streams are exempt from UPSTREAM_TIMEOUT_MS once their headers came.
   */
  @Type(() => Number)
  @Min(1_000)
  @Max(600_000)
  @IsInt()
  STREAM_IDLE_TIMEOUT_MS = 45_000;

  /** Connections to swap-gateway for status streams, per replica, apart from ordinary requests' (one per open stream). */
  @Type(() => Number)
  @Min(1)
  @Max(1_000_000)
  @IsInt()
  STREAM_UPSTREAM_CONNECTIONS = 20_000;

  /** Largest request body the gateway forwards; larger ones get 413. */
  @Type(() => Number)
  @Min(1_024)
  @Max(64 * 1024 * 1024)
  @IsInt()
  BODY_LIMIT_BYTES = 1024 * 1024;

  /**
   * Bytes of all request bodies still arriving, together (each is read whole before the
   * service is asked); past it a body is refused with 429. Bounds what slow uploads can hold.
   */
  @Type(() => Number)
  @Min(1_024)
  @Max(4 * 1024 * 1024 * 1024)
  @IsInt()
  BODY_BUFFER_LIMIT_BYTES = 64 * 1024 * 1024;

  /** Comma-separated origins allowed by CORS; empty means no CORS headers at all. */
  @IsString()
  CORS_ORIGINS = '';
}
