export type MessageHeaders = Record<string, string>;

/** A message as a handler receives it; `respond` exists when the sender awaits a reply. */
export interface BusDelivery {
  subject: string;
  data: string;
  headers: MessageHeaders;
  respond?: (data: string, headers?: MessageHeaders) => void;
  /**
   * A reply address that is not an inbox (`_INBOX.…` or `_INBOX_<service>.…`): the sender
   * asked for the answer to be published onto a subject of its choosing, for example a
   * management subject it may not publish on itself. Such a message gets no `respond`, and
   * request handlers never run for it (BusServer).
   */
  refusedReply?: string;
}

/** Whether a reply address is an inbox: nats.js' `_INBOX.` or a service's own `_INBOX_<service>.` prefix. */
export function isInboxSubject(reply: string): boolean {
  return /^_INBOX(?:\.|_[A-Za-z0-9-]+\.)[^\s.*>][^\s*>]*$/.test(reply);
}

export interface BusSubscription {
  /** Stops delivery at once. */
  unsubscribe(): void;
  /** Stops taking new messages but hands over those already received, then unsubscribes. */
  drain(): Promise<void>;
}

export interface RequestOptions {
  timeoutMs: number;
  headers?: MessageHeaders;
}

/** An open scatter-gather: replies keep arriving until it is closed. */
export interface Gathering {
  close(): void;
}

/**
 * The message bus the services talk over: NATS in a cluster, an in-process bus in the
 * embedded default. Both implementations follow NATS semantics: subscribers in the same
 * queue group share the messages of a subject (one member each), subscribers without a
 * queue group each receive every message, and a request with no subscriber fails at once.
 */
export interface Bus {
  readonly kind: 'nats' | 'in-process';
  request(subject: string, data: string, options: RequestOptions): Promise<BusDelivery>;
  publish(subject: string, data: string, headers?: MessageHeaders): void;
  subscribe(subject: string, handler: (message: BusDelivery) => void, options?: { queue?: string }): BusSubscription;
  /**
   * Scatter-gather: publishes to every subscriber of the subject (one member per queue
   * group) with a private reply address, and hands every reply to `onReply` until the
   * gathering is closed. A subscriber may reply several times (`respond` more than once).
   * The caller decides when it has heard enough; nothing here times out.
   */
  gather(subject: string, data: string, onReply: (reply: BusDelivery) => void, options?: { headers?: MessageHeaders }): Gathering;
  /** Resolves after a round trip to the broker; readiness probes call it. */
  ping(): Promise<void>;
  /** Lets in-flight messages go out, then closes. */
  close(): Promise<void>;
}

export class BusTimeoutError extends Error {
  constructor(
    readonly subject: string,
    readonly timeoutMs: number,
  ) {
    super(`No reply on ${subject} within ${timeoutMs} ms`);
    this.name = 'BusTimeoutError';
  }
}

export class BusNoRespondersError extends Error {
  constructor(readonly subject: string) {
    super(`No service is listening on ${subject}`);
    this.name = 'BusNoRespondersError';
  }
}

export class BusUnavailableError extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'BusUnavailableError';
  }
}

/** NATS subject matching: `*` matches one token, `>` matches one or more trailing tokens. */
export function subjectMatches(pattern: string, subject: string): boolean {
  if (pattern === subject) return true;
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return s.length > i;
    if (i >= s.length) return false;
    if (p[i] !== '*' && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}
