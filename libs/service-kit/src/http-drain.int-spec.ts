import { Agent, createServer, request, type Server } from 'node:http';
import { stopAccepting, trackIdleConnections } from './http-drain';

/** A server with one endless route (a stream) and one that answers at once. */
async function started(): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': open\n\n');
      return; // never ends by itself
    }
    res.end('ok');
  });
  trackIdleConnections(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

const get = (port: number, path: string, agent: Agent) =>
  new Promise<{ status: number; close: () => void }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      if (path !== '/stream') res.resume();
      resolve({ status: res.statusCode ?? 0, close: () => res.destroy() });
    });
    req.once('error', reject);
    req.end();
  });

describe('stopAccepting with idle connections tracked', () => {
  it('waits for an idle kept-alive connection until its client closes it, not for a stream', async () => {
    const { server, port } = await started();
    const agent = new Agent({ keepAlive: true });
    const stream = await get(port, '/stream', agent);
    expect((await get(port, '/', agent)).status).toBe(200); // a second, kept-alive connection, now idle
    let stopped = false;
    const stopping = stopAccepting(server, 5_000).then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 150));
    expect(stopped).toBe(false); // the idle connection is still open
    agent.destroy(); // the client closes its connections: the stream's with it
    const startedAt = Date.now();
    await stopping;
    expect(Date.now() - startedAt).toBeLessThan(1_000);
    stream.close();
    server.close();
  });

  it('does not wait for a connection that only carries a stream', async () => {
    const { server, port } = await started();
    const agent = new Agent({ keepAlive: true });
    const stream = await get(port, '/stream', agent);
    const startedAt = Date.now();
    await stopAccepting(server, 5_000);
    expect(Date.now() - startedAt).toBeLessThan(1_000);
    stream.close();
    agent.destroy();
    server.closeAllConnections();
    server.close();
  });
});
