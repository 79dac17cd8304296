import ipaddr from 'ipaddr.js';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

export class RefusedAddressError extends Error {
  readonly code = 'WEBHOOK_ADDRESS_REFUSED';
}

/** Public unicast addresses and WEBHOOK_ALLOWED_CIDRS only; see docs/architecture/webhooks.md#the-address-guard. */
export class AddressGuard {
  private readonly allowed: [ipaddr.IPv4 | ipaddr.IPv6, number][];

  constructor(
    allowedCidrs: string,
    private readonly resolver: Resolver = systemResolver,
  ) {
    this.allowed = allowedCidrs
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean)
      .map((c) => ipaddr.parseCIDR(c));
  }

  /** `address` is an IP literal. */
  permits(address: string): boolean {
    if (!ipaddr.isValid(address)) return false;
    let ip = ipaddr.parse(address);
    if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
    if (this.allowed.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits))) return true;
    return ip.range() === 'unicast';
  }

  /** Resolved at every delivery; throws RefusedAddressError when no address is permitted. */
  async resolve(host: string): Promise<string[]> {
    const bare = host.startsWith('[') ? host.slice(1, -1) : host;
    const addresses = isIP(bare) ? [bare] : await this.resolver(bare);
    const permitted = addresses.filter((a) => this.permits(a));
    if (!permitted.length) {
      throw new RefusedAddressError(
        `${host} resolves to ${addresses.join(', ') || 'nothing'}: not a public address (WEBHOOK_ALLOWED_CIDRS allows others)`,
      );
    }
    return permitted;
  }
}
