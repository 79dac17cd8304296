import { ErrorCode, type ErrorBody } from '@swap/contracts';
import type { FastifyInstance } from 'fastify';
import ipaddr from 'ipaddr.js';

/** Requests one client may have in flight; see docs/operators/gateway.md#slow-clients. */
export function installClientConcurrencyLimit(
  fastify: FastifyInstance,
  limit: number,
  shape: (url: string, body: ErrorBody) => unknown,
  refusal = `Too many requests in progress from this client (at most ${limit} at once); retry when one has finished`,
): void {
  const inFlight = new Map<string, number>();
  fastify.addHook('onRequest', (request, reply, done) => {
    const client = clientOf(request.ip);
    const count = inFlight.get(client) ?? 0;
    if (count >= limit) {
      const body: ErrorBody = {
        statusCode: 429,
        code: ErrorCode.TooManyRequests,
        message: refusal,
        requestId: String(request.id),
      };
      void reply.code(429).header('retry-after', '1').header('connection', 'close').send(shape(request.url, body));
      return;
    }
    inFlight.set(client, count + 1);
    // 'close' comes once whatever the end: answered, failed, or the client gone.
    reply.raw.once('close', () => {
      const left = (inFlight.get(client) ?? 1) - 1;
      if (left > 0) inFlight.set(client, left);
      else inFlight.delete(client);
    });
    done();
  });
}

/** One host usually holds a whole IPv6 /64: counted as one client. */
export function clientOf(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  let address = ipaddr.parse(ip);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) address = (address as ipaddr.IPv6).toIPv4Address();
  if (address.kind() === 'ipv4') return address.toString();
  return `${(address as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}
