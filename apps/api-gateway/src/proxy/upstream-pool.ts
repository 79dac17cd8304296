import { Dispatcher, Pool } from 'undici';
import { BufferedBody } from './body-limit';

/** A connection that never opened: met before the request is written, it may go to another replica. */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ETIMEDOUT',
  'EADDRNOTAVAIL',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** A restart takes seconds. */
export const REFUSED_COOLDOWN_MS = 1_000;

export function isConnectError(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return code !== undefined && NOT_CONNECTED.has(code);
}

const CLOSED_UNDER_REQUEST = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/** RFC 9110 §9.2.1: without a body, sending one of these twice is harmless. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A kept-alive connection a stopping replica closed just as this safe request went out (nginx's `proxy_next_upstream error`). */
function mayResend(options: Dispatcher.DispatchOptions, error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return (
    SAFE_METHODS.has(options.method.toUpperCase()) &&
    (options.body == null || options.body === '') &&
    code !== undefined &&
    CLOSED_UNDER_REQUEST.has(code)
  );
}

/** One service's replicas, round robin with resends; see docs/operators/gateway.md#how-the-gateway-is-built. */
export class UpstreamPool extends Dispatcher {
  readonly origins: string[];
  private readonly hosts: string[];
  private readonly pools: Pool[];
  private readonly downUntil: number[];
  private cursor = 0;

  constructor(urls: string[], options: Pool.Options) {
    super();
    this.origins = urls.map((url) => new URL(url).origin);
    this.hosts = urls.map((url) => new URL(url).host);
    this.pools = this.origins.map((origin) => new Pool(origin, options));
    this.downUntil = this.origins.map(() => 0);
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const sent = options.body instanceof BufferedBody ? { ...options, body: options.body.bytes } : options;
    return this.attempt(sent, handler, this.order(), 0);
  }

  /** For callers that open connections themselves (WebSocket upgrades). */
  candidates(): string[] {
    return this.order().map((i) => this.origins[i]);
  }

  /** Those that refused lately go last: they may be back. */
  private order(): number[] {
    const now = Date.now();
    const start = this.cursor;
    this.cursor = (start + 1) % this.origins.length;
    const inTurn = this.origins.map((_, step) => (start + step) % this.origins.length);
    return [...inTurn.filter((i) => this.downUntil[i] <= now), ...inTurn.filter((i) => this.downUntil[i] > now)];
  }

  refused(origin: string): void {
    const index = this.origins.indexOf(origin);
    if (index >= 0) this.downUntil[index] = Date.now() + REFUSED_COOLDOWN_MS;
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    const closed = Promise.all(this.pools.map((pool) => pool.close())).then(() => undefined);
    if (!callback) return closed;
    void closed.then(callback);
  }

  override destroy(): Promise<void>;
  override destroy(error: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(error: Error | null, callback: () => void): void;
  override destroy(first?: Error | null | (() => void), second?: () => void): Promise<void> | void {
    const error = typeof first === 'function' ? null : (first ?? null);
    const callback = typeof first === 'function' ? first : second;
    const destroyed = Promise.all(this.pools.map((pool) => pool.destroy(error))).then(() => undefined);
    if (!callback) return destroyed;
    void destroyed.then(callback);
  }

  private attempt(
    options: Dispatcher.DispatchOptions,
    handler: Dispatcher.DispatchHandler,
    order: number[],
    step: number,
    resent = false,
  ): boolean {
    const index = order[step];
    let connected = false;
    let answered = false;
    const guarded = guard(handler, {
      connected: () => (connected = true),
      answered: () => (answered = true),
      failed: (error) => {
        const refused = !connected && isConnectError(error);
        if (refused) this.downUntil[index] = Date.now() + REFUSED_COOLDOWN_MS;
        if (step + 1 >= order.length) return false;
        if (refused) {
          this.attempt(options, handler, order, step + 1, resent);
          return true;
        }
        if (connected && !answered && !resent && mayResend(options, error)) {
          this.attempt(options, handler, order, step + 1, true);
          return true;
        }
        return false;
      },
    });
    return this.pools[index].dispatch(
      { ...options, origin: this.origins[index], headers: withHost(options.headers, this.hosts[index]) },
      guarded,
    );
  }
}

/** The handler, told nothing of a failed attempt another upstream takes over; both undici handler styles. */
function guard(
  handler: Dispatcher.DispatchHandler,
  hooks: { connected(): void; answered(): void; failed(error: unknown): boolean },
): Dispatcher.DispatchHandler {
  return new Proxy(handler, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== 'function') return value;
      if (property === 'onConnect' || property === 'onRequestStart') {
        return (...args: unknown[]) => {
          hooks.connected();
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      if (property === 'onHeaders' || property === 'onResponseStart') {
        return (...args: unknown[]) => {
          hooks.answered();
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      if (property === 'onError' || property === 'onResponseError') {
        return (...args: unknown[]) => {
          if (hooks.failed(property === 'onError' ? args[0] : args[1])) return undefined;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
}

/** The request's Host header naming the upstream it goes to (reply-from writes the first one's). */
function withHost(headers: Dispatcher.DispatchOptions['headers'], host: string): Dispatcher.DispatchOptions['headers'] {
  if (!headers || Array.isArray(headers) || typeof (headers as Iterable<unknown>)[Symbol.iterator] === 'function') return headers;
  return { ...(headers as Record<string, string | string[] | undefined>), host };
}
