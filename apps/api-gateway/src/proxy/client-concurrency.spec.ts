import { clientOf } from './client-concurrency';

describe('the client a request counts against (per-client upstream bound)', () => {
  it('is an IPv4 address itself, also when written IPv4-mapped', () => {
    expect(clientOf('203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf('::ffff:cb00:7107')).toBe('203.0.113.7');
  });

  it('is the /64 of an IPv6 address, however the address is written', () => {
    const net = '2001:db8:1:2::/64';
    for (const ip of ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0DB8:0001:0002:0:0:0:9', '2001:db8:1:2:a:b:c:d'])
      expect(clientOf(ip)).toBe(net);
    expect(clientOf('2001:db8:1:3::1')).not.toBe(net);
    expect(clientOf('::1')).toBe('0:0:0:0::/64');
  });

  it('leaves anything else as it is', () => {
    expect(clientOf('not an address')).toBe('not an address');
  });
});
