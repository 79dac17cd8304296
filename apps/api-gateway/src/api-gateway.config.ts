import { ServiceConfig, IsServiceUrl } from '@swap/config';
import { DefaultAdminPorts, DefaultPorts, type ServiceName } from '@swap/contracts';
import { Type } from 'class-transformer';
import { IsInt, IsString, Max, Min } from 'class-validator';

const upstream = (service: ServiceName) => `http://127.0.0.1:${DefaultPorts[service]}`;

type UpstreamVariable = 'UPSTREAM_SWAP_GATEWAY_URL' | 'UPSTREAM_QUOTE_BUILDER_URL' | 'UPSTREAM_RELAY_TRACKER_URL' | 'UPSTREAM_ORACLE_CANDLES_URL' | 'UPSTREAM_SPONSORSHIP_KEYS_URL' | 'UPSTREAM_PARTNER_PORTAL_API_URL';

/** The variable holding a service's address: `swap-gateway` → `UPSTREAM_SWAP_GATEWAY_URL`. */
export function upstreamVariable(service: ServiceName): UpstreamVariable {
  return `UPSTREAM_${service.toUpperCase().replace(/-/g, '_')}_URL` as UpstreamVariable;
}

export class ApiGatewayConfig extends ServiceConfig {
  override PORT = DefaultPorts['api-gateway'];
  override ADMIN_PORT = DefaultAdminPorts['api-gateway'];

  @IsServiceUrl(['http', 'https'])
  UPSTREAM_SWAP_GATEWAY_URL = upstream('swap-gateway');

  @IsServiceUrl(['http', 'https'])
  UPSTREAM_QUOTE_BUILDER_URL = upstream('quote-builder');

  @IsServiceUrl(['http', 'https'])
  UPSTREAM_RELAY_TRACKER_URL = upstream('relay-tracker');

  @IsServiceUrl(['http', 'https'])
  UPSTREAM_ORACLE_CANDLES_URL = upstream('oracle-candles');

  @IsServiceUrl(['http', 'https'])
  UPSTREAM_SPONSORSHIP_KEYS_URL = upstream('sponsorship-keys');

  @IsServiceUrl(['http', 'https'])
  UPSTREAM_PARTNER_PORTAL_API_URL = upstream('partner-portal-api');

  /** How long an upstream may take to start answering before the gateway gives up with 504. */
  @Type(() => Number)
  @Min(100)
  @Max(300_000)
  @IsInt()
  UPSTREAM_TIMEOUT_MS = 10_000;

  /** Largest request body the gateway forwards; larger ones get 413. */
  @Type(() => Number)
  @Min(1_024)
  @Max(64 * 1024 * 1024)
  @IsInt()
  BODY_LIMIT_BYTES = 1024 * 1024;

  /** Comma-separated origins allowed by CORS; empty means no CORS headers at all. */
  @IsString()
  CORS_ORIGINS = '';
}
