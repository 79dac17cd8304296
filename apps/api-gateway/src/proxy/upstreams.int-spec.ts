import { ConfigError, loadConfig } from '@swap/config';
import { startServiceFromEnv, type RunningService } from '@swap/service-kit';
import { jsonOf, testServiceEnv, unusedPort } from '@swap/testing';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { ApiGatewayConfig } from '../api-gateway.config';
import { apiGateway } from '../api-gateway.definition';

interface Receipt {
  method: string;
  url: string;
  host: string;
  bytes: number;
}

/**
 * An upstream replica that counts every request that reaches it. `dies`: it takes the
 * request, reads the first chunk of its body and drops the connection without an answer
 * (a replica that crashes mid-request).
 */
async function replica(options: { dies?: boolean } = {}): Promise<{ url: string; receipts: Receipt[]; server: Server }> {
  const receipts: Receipt[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const receipt: Receipt = { method: req.method!, url: req.url!, host: req.headers.host!, bytes: 0 };
    receipts.push(receipt);
    if (req.url?.includes('solvers/connect')) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"code":"UNAUTHORIZED","from":"second"}');
      return;
    }
    if (options.dies) {
      req.once('data', () => req.socket.destroy());
      if (req.method === 'GET') req.socket.destroy();
      return;
    }
    req.on('data', (c: Buffer) => (receipt.bytes += c.length));
    req.on('end', () =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ port: (server.address() as { port: number }).port, bytes: receipt.bytes })),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, receipts, server };
}

const post = (url: string, body: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('UPSTREAM_*_URL lists', () => {
  const load = (value: string) => () => loadConfig(ApiGatewayConfig, { UPSTREAM_SWAP_GATEWAY_URL: value });

  it('take one URL or several, comma-separated', () => {
    expect(load('http://10.0.0.1:3001, https://10.0.0.2:3001')().UPSTREAM_SWAP_GATEWAY_URL).toBe(
      'http://10.0.0.1:3001, https://10.0.0.2:3001',
    );
  });

  it.each([
    ['http://10.0.0.1:3001,http://10.0.0.1:3001/', 'UPSTREAM_SWAP_GATEWAY_URL names the same upstream more than once'],
    [
      'http://10.0.0.1:3001,ftp://10.0.0.2',
      'UPSTREAM_SWAP_GATEWAY_URL must be an http:// or https:// URL, or a comma-separated list of them',
    ],
    ['http://10.0.0.1:3001,', 'UPSTREAM_SWAP_GATEWAY_URL must be an http:// or https:// URL, or a comma-separated list of them'],
  ])('refuse %j at boot, naming the variable', (value, message) => {
    expect(load(value)).toThrow(ConfigError);
    expect(load(value)).toThrow(`UPSTREAM_SWAP_GATEWAY_URL=${JSON.stringify(value)} is invalid: ${message}`);
  });
});

describe('the gateway over several replicas of a service', () => {
  const gateways: RunningService[] = [];
  const servers: Server[] = [];
  const gatewayOver = async (swapGateway: string[], quoteBuilder?: string[]) => {
    const gateway = await startServiceFromEnv(
      apiGateway,
      testServiceEnv({
        UPSTREAM_SWAP_GATEWAY_URL: swapGateway.join(','),
        ...(quoteBuilder ? { UPSTREAM_QUOTE_BUILDER_URL: quoteBuilder.join(',') } : {}),
      }),
    );
    gateways.push(gateway);
    return gateway;
  };
  const started = async (options?: { dies?: boolean }) => {
    const r = await replica(options);
    servers.push(r.server);
    return r;
  };

  afterAll(async () => {
    for (const gateway of gateways) await gateway.close();
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
  });

  it('balances requests over the replicas, each told its own Host', async () => {
    const [a, b] = [await started(), await started()];
    const gateway = await gatewayOver([a.url, b.url]);
    for (let i = 0; i < 20; i++) expect((await fetch(`${gateway.url}/v1/swaps/tokens`)).status).toBe(200);
    expect([a.receipts.length, b.receipts.length]).toEqual([10, 10]);
    expect(new Set(a.receipts.map((r) => r.host))).toEqual(new Set([new URL(a.url).host]));
    expect(new Set(b.receipts.map((r) => r.host))).toEqual(new Set([new URL(b.url).host]));
  });

  it('sends a request whose connection was refused to the next replica: every POST answered, each received once, body intact', async () => {
    const down = `http://127.0.0.1:${await unusedPort()}`;
    const up = await started();
    const gateway = await gatewayOver([down, up.url]);
    const body = JSON.stringify({ pad: 'x'.repeat(64 * 1024) });
    for (let i = 0; i < 10; i++) {
      const res = await post(`${gateway.url}/v1/swaps/intents/hash`, body);
      expect(res.status).toBe(200);
      expect((await jsonOf(res)).bytes).toBe(Buffer.byteLength(body));
    }
    expect(up.receipts).toHaveLength(10);
    expect(up.receipts.filter((r) => r.method !== 'POST' || r.bytes !== Buffer.byteLength(body))).toEqual([]);
  });

  it('never sends again a POST that reached a replica which then died mid-request: 502, exactly one receipt', async () => {
    const dying = await started({ dies: true });
    const healthy = await started();
    const gateway = await gatewayOver([dying.url, healthy.url]);
    // A body the dying replica starts to read: the request has reached it.
    const body = JSON.stringify({ pad: 'y'.repeat(256 * 1024) });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await post(`${gateway.url}/v1/swaps/submit-tx`, body)).status);
    // Turn by turn: three reached the dying replica (502, not retried), three the healthy one.
    expect(dying.receipts).toHaveLength(3);
    expect(healthy.receipts).toHaveLength(3);
    expect(statuses.filter((s) => s === 502)).toHaveLength(3);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(dying.receipts.length + healthy.receipts.length).toBe(statuses.length);
  });

  it('sends a GET whose connection closed before any answer to the next replica, once: a stopping replica closing a kept-alive connection', async () => {
    const dying = await started({ dies: true });
    const healthy = await started();
    const gateway = await gatewayOver([dying.url, healthy.url]);
    for (let i = 0; i < 6; i++) expect((await fetch(`${gateway.url}/v1/swaps/tokens`)).status).toBe(200);
    // Every second one went to the dying replica first, then once to the healthy one.
    expect([dying.receipts.length, healthy.receipts.length]).toEqual([3, 6]);
    // With nowhere else to go, the reset is the caller's: 502, sent once.
    const alone = await gatewayOver([(await started({ dies: true })).url]);
    expect((await fetch(`${alone.url}/v1/swaps/tokens`)).status).toBe(502);
  });

  it('tries the next replica for a WebSocket handshake whose connection was refused', async () => {
    const down = `http://127.0.0.1:${await unusedPort()}`;
    const second = await started();
    const gateway = await gatewayOver([(await started()).url], [down, second.url]);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${gateway.url}/v1/intent/solvers/connect`, {
        headers: {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString())).on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ from: 'second' });
    expect(second.receipts).toHaveLength(1);
  });
});
