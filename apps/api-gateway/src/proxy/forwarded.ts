import proxyaddr from '@fastify/proxy-addr';
import { trustedProxies } from '@swap/config';
import type { IncomingMessage } from 'node:http';

export type TrustFn = (address: string, hop: number) => boolean;

export function compileTrust(list: string): TrustFn {
  const items = trustedProxies(list);
  return items ? proxyaddr.compile(items) : () => false;
}

/** Only the hops this gateway can vouch for: a client cannot pass itself off as another address. */
export function forwardedChain(req: IncomingMessage, trust: TrustFn): string {
  return proxyaddr.all(req, trust).reverse().join(', ');
}
