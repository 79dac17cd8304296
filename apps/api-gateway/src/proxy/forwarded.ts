import proxyaddr from '@fastify/proxy-addr';
import { trustedProxies } from '@swap/config';
import type { IncomingMessage } from 'node:http';

export type TrustFn = (address: string, hop: number) => boolean;

/** The gateway's TRUSTED_PROXIES as a test of one address (nothing trusted when empty). */
export function compileTrust(list: string): TrustFn {
  const items = trustedProxies(list);
  return items ? proxyaddr.compile(items) : () => false;
}

/**
 * The X-Forwarded-For passed on to a service: the hops this gateway can vouch for,
 * furthest first, ending with its own peer. Whatever an untrusted peer wrote in the
 * header is dropped, so a client cannot pass itself off as another address to the
 * services behind (their rate limits, their logs).
 */
export function forwardedChain(req: IncomingMessage, trust: TrustFn): string {
  return proxyaddr.all(req, trust).reverse().join(', ');
}
