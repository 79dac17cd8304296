import { Dispatcher, Pool } from 'undici';
import { BufferedBody } from './body-limit';

/**
 * Errors of a connection that never opened (refused, unreachable, timed out while
 * connecting, a name that does not resolve). Met before the request is written, they leave
 * it unsent: it may go to another replica.
 */
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

/** How long an upstream that refused a connection is passed over while another is up (a restart takes seconds). */
export const REFUSED_COOLDOWN_MS = 1_000;

export function isConnectError(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return code !== undefined && NOT_CONNECTED.has(code);
}

/** A connection closed under a request (the peer reset or ended it) rather than a timeout or a refusal of ours. */
const CLOSED_UNDER_REQUEST = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/** Methods that change nothing (RFC 9110 §9.2.1), sent without a body: sending one twice is harmless. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A request that may go to another replica although it was written to this one: a safe
 * method without a body whose connection closed before any answer began. That is the
 * kept-alive connection a stopping replica closed as idle just as the request went out
 * over it (the same rule as nginx's `proxy_next_upstream error` for idempotent requests).
 */
function mayResend(options: Dispatcher.DispatchOptions, error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return (
    SAFE_METHODS.has(options.method.toUpperCase()) &&
    (options.body == null || options.body === '') &&
    code !== undefined &&
    CLOSED_UNDER_REQUEST.has(code)
  );
}

/**
 * The replicas of one service behind the gateway: one keep-alive pool per URL, requests
 * taken in turn (round robin), and a replica that refused a connection passed over for a
 * second. A request is sent again to another replica when its connection to the first
 * could not be opened: undici writes a request only once it holds a connected socket, and
 * tells its handler so (`onConnect`) before the first byte goes out, so an error before
 * that means nothing reached the upstream. An error after it (a connection reset while
 * the request was being sent or answered) is retried only for a GET, HEAD or OPTIONS
 * without a body that has no answer yet, once (`mayResend`): a POST is never sent twice.
 * A body the gateway has read whole goes as its bytes (BufferedBody), so a resend after a
 * refused connection sends the same bytes.
 *
 * Used as @fastify/reply-from's undici instance (reply-from's own multi-upstream mode is a
 * BalancedPool, which neither retries nor passes over a refusing replica).
 */
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
    // A body the gateway has read whole goes as its bytes: one write with the headers, no stream.
    const sent = options.body instanceof BufferedBody ? { ...options, body: options.body.bytes } : options;
    return this.attempt(sent, handler, this.order(), 0);
  }

  /** The origins in the order one request tries them (for callers that open connections themselves: WebSocket upgrades). */
  candidates(): string[] {
    return this.order().map((i) => this.origins[i]);
  }

  /**
   * The order to try the upstreams in for one request: the next in turn first, those that
   * refused lately last (they may be back: tried when nothing else is left).
   */
  private order(): number[] {
    const now = Date.now();
    const start = this.cursor;
    this.cursor = (start + 1) % this.origins.length;
    const inTurn = this.origins.map((_, step) => (start + step) % this.origins.length);
    return [...inTurn.filter((i) => this.downUntil[i] <= now), ...inTurn.filter((i) => this.downUntil[i] > now)];
  }

  /** Reports a connection to `origin` that could not be opened (for callers of `candidates`). */
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

/**
 * The handler as the pool sees it: the same handler, told nothing of a failed attempt that
 * another upstream takes over (a connection refused, or a safe request's connection closed
 * before any answer); told of each attempt's connection (`onConnect`, the latest abort wins).
 * Both handler styles of undici are covered (onConnect/onError and onRequestStart/onResponseError).
 */
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
