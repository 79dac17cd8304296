import type { MarketplaceFrame, SolverFrame } from '@swap/contracts';
import type { Logger } from '@swap/observability';
import WebSocket from 'ws';

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 30_000;

/** Reopened with back-off whenever it drops; `send` drops frames while disconnected. See docs/integrators/solvers.md. */
export class MarketplaceClient {
  private socket?: WebSocket;
  private retryMs = FIRST_RETRY_MS;
  private heartbeatMs = 15_000;
  private lastHeard = 0;
  private watchdog?: NodeJS.Timeout;
  private retry?: NodeJS.Timeout;
  private stopped = false;
  connected = false;

  constructor(
    private readonly url: string,
    private readonly credential: string,
    private readonly onFrame: (frame: MarketplaceFrame) => void,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.open();
    this.watchdog = setInterval(() => {
      if (this.connected && Date.now() - this.lastHeard > this.heartbeatMs * 2.5) {
        this.logger.warn('marketplace silent past its heartbeats; reconnecting');
        this.socket?.terminate();
      }
    }, 1_000);
    this.watchdog.unref();
  }

  send(frame: SolverFrame): boolean {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.watchdog);
    clearTimeout(this.retry);
    const socket = this.socket;
    if (!socket || socket.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.close(1000, 'solver stopping');
      setTimeout(() => (socket.terminate(), resolve()), 2_000).unref();
    });
  }

  private open(): void {
    const socket = new WebSocket(this.url, { headers: { authorization: `Bearer ${this.credential}` }, handshakeTimeout: 10_000 });
    this.socket = socket;
    socket.on('open', () => {
      this.connected = true;
      this.lastHeard = Date.now();
      this.retryMs = FIRST_RETRY_MS;
      this.logger.info({ url: this.url }, 'connected to the marketplace');
    });
    socket.on('message', (data) => {
      this.lastHeard = Date.now();
      let frame: MarketplaceFrame;
      try {
        frame = JSON.parse(data.toString()) as MarketplaceFrame;
      } catch {
        return;
      }
      if (frame.type === 'welcome') this.heartbeatMs = frame.heartbeat_ms;
      if (frame.type === 'heartbeat') this.send({ type: 'heartbeat' });
      else this.onFrame(frame);
    });
    socket.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () =>
        this.logger.error({ status: res.statusCode, body: body.slice(0, 300) }, 'the marketplace refused the connection'),
      );
      socket.terminate();
    });
    socket.on('error', (error) => this.logger.debug({ err: error }, 'marketplace connection error'));
    socket.on('close', (code, reason) => {
      const wasConnected = this.connected;
      this.connected = false;
      if (this.stopped) return;
      if (wasConnected) this.logger.warn({ code, reason: reason.toString() }, 'marketplace connection closed; reconnecting');
      this.retry = setTimeout(() => this.open(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
    });
  }
}
