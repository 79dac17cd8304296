import {
  BusNoRespondersError,
  BusTimeoutError,
  BusUnavailableError,
  subjectMatches,
  type Bus,
  type BusDelivery,
  type BusSubscription,
  type Gathering,
  type MessageHeaders,
  type RequestOptions,
} from './bus';
import { AsyncResource } from 'node:async_hooks';

interface Subscriber {
  subject: string;
  queue?: string;
  handler: (message: BusDelivery) => void;
  pending: number;
  draining: boolean;
  drained?: () => void;
}

/** Asynchronous and as strings, as across a network; see docs/architecture/runtime.md#the-bus. */
export class InProcessBus implements Bus {
  readonly kind = 'in-process' as const;
  private readonly subscribers = new Set<Subscriber>();
  private readonly roundRobin = new Map<string, number>();
  private closed = false;

  async request(subject: string, data: string, options: RequestOptions): Promise<BusDelivery> {
    if (this.closed) throw new BusUnavailableError('In-process bus is closed');
    const targets = this.route(subject);
    if (targets.length === 0) throw new BusNoRespondersError(subject);
    return new Promise<BusDelivery>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        reject(new BusTimeoutError(subject, options.timeoutMs));
      }, options.timeoutMs);
      const respond = (replyData: string, replyHeaders?: MessageHeaders): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ subject, data: replyData, headers: { ...(replyHeaders ?? {}) } });
      };
      for (const target of targets) this.deliver(target, { subject, data, headers: { ...(options.headers ?? {}) }, respond });
    });
  }

  publish(subject: string, data: string, headers?: MessageHeaders): void {
    if (this.closed) return;
    for (const target of this.route(subject)) this.deliver(target, { subject, data, headers: { ...(headers ?? {}) } });
  }

  gather(subject: string, data: string, onReply: (reply: BusDelivery) => void, options?: { headers?: MessageHeaders }): Gathering {
    if (this.closed) throw new BusUnavailableError('In-process bus is closed');
    let open = true;
    const gathered = AsyncResource.bind(onReply);
    const respond = (replyData: string, replyHeaders?: MessageHeaders): void => {
      setImmediate(() => open && gathered({ subject, data: replyData, headers: { ...(replyHeaders ?? {}) } }));
    };
    for (const target of this.route(subject)) this.deliver(target, { subject, data, headers: { ...(options?.headers ?? {}) }, respond });
    return { close: () => void (open = false) };
  }

  subscribe(subject: string, handler: (message: BusDelivery) => void, options?: { queue?: string }): BusSubscription {
    // Run in the subscriber's async context, as a NATS callback runs in its connection's, not the sender's.
    const subscriber: Subscriber = { subject, queue: options?.queue, handler: AsyncResource.bind(handler), pending: 0, draining: false };
    this.subscribers.add(subscriber);
    const unsubscribe = () => void this.subscribers.delete(subscriber);
    const drain = async () => {
      subscriber.draining = true;
      if (subscriber.pending > 0) await new Promise<void>((resolve) => (subscriber.drained = resolve));
      unsubscribe();
    };
    return { unsubscribe, drain };
  }

  async ping(): Promise<void> {
    if (this.closed) throw new Error('In-process bus is closed');
  }

  async close(): Promise<void> {
    this.closed = true;
    this.subscribers.clear();
  }

  private route(subject: string): Subscriber[] {
    const plain: Subscriber[] = [];
    const groups = new Map<string, Subscriber[]>();
    for (const sub of this.subscribers) {
      if (sub.draining || !subjectMatches(sub.subject, subject)) continue;
      if (sub.queue === undefined) plain.push(sub);
      else {
        const key = `${sub.subject}\u0000${sub.queue}`;
        const members = groups.get(key);
        if (members) members.push(sub);
        else groups.set(key, [sub]);
      }
    }
    for (const [key, members] of groups) {
      const next = this.roundRobin.get(key) ?? 0;
      this.roundRobin.set(key, (next + 1) % 1_000_000);
      plain.push(members[next % members.length]);
    }
    return plain;
  }

  private deliver(target: Subscriber, message: BusDelivery): void {
    target.pending++;
    setImmediate(() => {
      target.pending--;
      if (this.subscribers.has(target)) target.handler(message);
      if (target.pending === 0) target.drained?.();
    });
  }
}
