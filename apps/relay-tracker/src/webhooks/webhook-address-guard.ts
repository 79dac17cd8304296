import ipaddr from 'ipaddr.js';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/** Resolves a host name to its addresses (every one, as the system resolver answers). */
export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** An endpoint host refused: it resolves to no address a delivery may connect to. */
export class RefusedAddressError extends Error {
  readonly code = 'WEBHOOK_ADDRESS_REFUSED';
}

/**
 * Which addresses a webhook delivery may connect to: public unicast ones, and those in
 * WEBHOOK_ALLOWED_CIDRS. Everything else is refused before any connection: loopback,
 * private (RFC 1918, unique local), link-local (with the cloud metadata address
 * 169.254.169.254), carrier-grade NAT, multicast, reserved, unspecified, and IPv6 forms that
 * embed one of those (IPv4-mapped, 6to4, Teredo...: ipaddr.js's ranges other than unicast).
 */
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

  /** Whether a delivery may connect to `address` (an IP literal). */
  permits(address: string): boolean {
    if (!ipaddr.isValid(address)) return false;
    let ip = ipaddr.parse(address);
    if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
    if (this.allowed.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits))) return true;
    return ip.range() === 'unicast';
  }

  /**
   * The addresses of `host` a delivery may connect to, resolved now (every delivery: a name
   * that changes to a private address is refused from then on). Refused when none is.
   */
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
