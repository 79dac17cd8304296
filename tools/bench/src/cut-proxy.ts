import { createConnection, createServer, type Server, type Socket } from 'node:net';

const DEFAULT_PORTS: Record<string, number> = { 'postgresql:': 5432, 'postgres:': 5432, 'redis:': 6379, 'nats:': 4222, 'http:': 80 };

/**
 * A TCP proxy on loopback that the faults part cuts: every open connection is closed and new
 * ones are refused, as when the dependency goes down, until it is restored on the same port.
 */
export class CutProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  private constructor(
    readonly name: string,
    private readonly target: { host: string; port: number },
    public port: number,
  ) {}

  /** Proxies to the host and port of `targetUrl` (any scheme). */
  static async start(name: string, targetUrl: string): Promise<CutProxy> {
    const url = new URL(targetUrl);
    const port = Number(url.port) || DEFAULT_PORTS[url.protocol];
    if (!port) throw new Error(`${name}: no port in ${url.protocol}//${url.host}`);
    const proxy = new CutProxy(name, { host: url.hostname.replace(/^\[|\]$/g, ''), port }, 0);
    await proxy.listen();
    return proxy;
  }

  /** `url` with its host and port this proxy's. */
  rewrite(url: string): string {
    const rewritten = new URL(url);
    rewritten.hostname = '127.0.0.1';
    rewritten.port = String(this.port);
    return rewritten.toString().replace(/\/$/, url.endsWith('/') ? '/' : '');
  }

  get isCut(): boolean {
    return this.server === undefined;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server?.close(() => resolve()) ?? resolve());
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await closed;
  }

  async restore(): Promise<void> {
    if (!this.server) await this.listen();
  }

  async stop(): Promise<void> {
    await this.cut();
  }

  private async listen(): Promise<void> {
    const server = createServer((client) => {
      const upstream = createConnection(this.target);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }
}
