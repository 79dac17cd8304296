export type MessageHeaders = Record<string, string>;

export interface BusDelivery {
  subject: string;
  data: string;
  headers: MessageHeaders;
  respond?: (data: string, headers?: MessageHeaders) => void;
  /** A reply address that is not an inbox: no `respond`, and no request handler runs for it. */
  refusedReply?: string;
}

export function isInboxSubject(reply: string): boolean {
  return /^_INBOX(?:\.|_[A-Za-z0-9-]+\.)[^\s.*>][^\s*>]*$/.test(reply);
}

export interface BusSubscription {
  unsubscribe(): void;
  /** Hands over the messages already received, then unsubscribes. */
  drain(): Promise<void>;
}

export interface RequestOptions {
  timeoutMs: number;
  headers?: MessageHeaders;
}

export interface Gathering {
  close(): void;
}

/** NATS semantics, in a cluster and in process; see docs/architecture/runtime.md#the-bus. */
export interface Bus {
  readonly kind: 'nats' | 'in-process';
  request(subject: string, data: string, options: RequestOptions): Promise<BusDelivery>;
  publish(subject: string, data: string, headers?: MessageHeaders): void;
  subscribe(subject: string, handler: (message: BusDelivery) => void, options?: { queue?: string }): BusSubscription;
  /** Every reply until the gathering is closed; nothing here times out. */
  gather(subject: string, data: string, onReply: (reply: BusDelivery) => void, options?: { headers?: MessageHeaders }): Gathering;
  ping(): Promise<void>;
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
