import type { Logger } from '@swap/observability';
import { testInfra } from '@swap/testing';
import { connect as tcpConnect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { NatsBus } from './nats-bus';

async function freezableProxy(): Promise<{ url: string; freeze: () => void; server: Server; sockets: Socket[] }> {
  const target = new URL(testInfra.natsUrl);
  const sockets: Socket[] = [];
  let frozen = false;
  const server = createServer((client) => {
    const upstream = tcpConnect(Number(target.port), target.hostname);
    sockets.push(client, upstream);
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => frozen || client.write(chunk));
    for (const s of [client, upstream]) s.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `nats://127.0.0.1:${(server.address() as AddressInfo).port}`, freeze: () => (frozen = true), server, sockets };
}

describe('NatsBus.close', () => {
  it('closes within its drain bound when the server stops answering, saying the drain did not finish', async () => {
    const proxy = await freezableProxy();
    const warn = jest.fn();
    const logger = { warn, error: jest.fn(), info: jest.fn(), debug: jest.fn() } as unknown as Logger;
    const bus = await NatsBus.connect({ servers: proxy.url, name: 'nats-bus-close-int-spec', logger });
    try {
      bus.subscribe('nats-bus-close.never', () => undefined);
      await bus.ping();
      proxy.freeze();
      const started = Date.now();
      await bus.close(300);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(bus.connection.isClosed()).toBe(true);
      expect(warn).toHaveBeenCalledWith({ drainTimeoutMs: 300 }, 'NATS did not drain in time; closing the connection as it is');
    } finally {
      for (const s of proxy.sockets) s.destroy();
      await new Promise((resolve) => proxy.server.close(resolve));
    }
  });

  it('drains and closes without a warning when the server answers', async () => {
    const warn = jest.fn();
    const logger = { warn, error: jest.fn(), info: jest.fn(), debug: jest.fn() } as unknown as Logger;
    const bus = await NatsBus.connect({ servers: testInfra.natsUrl, name: 'nats-bus-close-int-spec', logger });
    bus.subscribe('nats-bus-close.never', () => undefined);
    await bus.close(300);
    expect(bus.connection.isClosed()).toBe(true);
    expect(warn).not.toHaveBeenCalled();
  });
});
