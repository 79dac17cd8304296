import type { ServiceConfig } from '@swap/config';

export interface SlowClientTimeouts {
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  connectionsCheckingInterval: number;
}

export function slowClientTimeouts(
  config: Pick<ServiceConfig, 'HTTP_HEADERS_TIMEOUT_MS' | 'HTTP_REQUEST_TIMEOUT_MS' | 'HTTP_KEEP_ALIVE_TIMEOUT_MS'>,
): SlowClientTimeouts {
  return {
    headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    // Node's default (30 s) would stretch a 10 s limit to 40 s.
    connectionsCheckingInterval: Math.min(1_000, Math.max(25, Math.floor(config.HTTP_HEADERS_TIMEOUT_MS / 4))),
  };
}
