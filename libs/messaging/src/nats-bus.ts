import { connect, createInbox, ErrorCode, headers as natsHeaders, type Msg, type MsgHdrs, type NatsConnection, type NatsError } from 'nats';
import { BusNoRespondersError, BusTimeoutError, BusUnavailableError, type Bus, type BusDelivery, type BusSubscription, type Gathering, type MessageHeaders, type RequestOptions } from './bus';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export interface NatsBusOptions {
  /** One URL or a comma-separated list. */
  servers: string;
  /** Connection name shown by the NATS server's monitoring. */
  name: string;
  connectTimeoutMs?: number;
  /**
   * Prepended to every subject (`<prefix>.<subject>`), so several deployments (or test
   * runs) can share one NATS without hearing each other.
   */
  subjectPrefix?: string;
}

export class NatsBus implements Bus {
  readonly kind = 'nats' as const;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
  ) {}

  /** The connection itself, for what the Bus does not cover (JetStream work queues). */
  get connection(): NatsConnection {
    return this.nc;
  }

  /** The subject prefix of this deployment ('' when none). */
  get subjectPrefix(): string {
    return this.prefix.replace(/\.$/, '');
  }

  static async connect(options: NatsBusOptions): Promise<NatsBus> {
    const servers = options.servers.split(',').map((s) => s.trim());
    try {
      const nc = await connect({
        servers,
        name: options.name,
        timeout: options.connectTimeoutMs ?? 5_000,
        reconnect: true,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 1_000,
      });
      return new NatsBus(nc, options.subjectPrefix ? `${options.subjectPrefix}.` : '');
    } catch (error) {
      throw new BusUnavailableError(`Cannot connect to NATS at ${servers.join(', ')}: ${(error as Error).message}`, error);
    }
  }

  async request(subject: string, data: string, options: RequestOptions): Promise<BusDelivery> {
    if (this.nc.isClosed()) throw new BusUnavailableError('NATS connection is closed');
    try {
      const msg = await this.nc.request(this.prefix + subject, encoder.encode(data), {
        timeout: options.timeoutMs,
        headers: toNatsHeaders(options.headers),
      });
      return this.fromNatsMsg(msg);
    } catch (error) {
      const code = (error as NatsError).code;
      if (code === ErrorCode.NoResponders) throw new BusNoRespondersError(subject);
      if (code === ErrorCode.Timeout) throw new BusTimeoutError(subject, options.timeoutMs);
      throw new BusUnavailableError(`NATS request on ${subject} failed: ${(error as Error).message}`, error);
    }
  }

  publish(subject: string, data: string, headers?: MessageHeaders): void {
    try {
      this.nc.publish(this.prefix + subject, encoder.encode(data), { headers: toNatsHeaders(headers) });
    } catch (error) {
      throw new BusUnavailableError(`NATS publish on ${subject} failed: ${(error as Error).message}`, error);
    }
  }

  subscribe(subject: string, handler: (message: BusDelivery) => void, options?: { queue?: string }): BusSubscription {
    const sub = this.nc.subscribe(this.prefix + subject, {
      queue: options?.queue,
      callback: (err, msg) => {
        if (err) return;
        handler(this.fromNatsMsg(msg));
      },
    });
    return { unsubscribe: () => sub.unsubscribe(), drain: () => sub.drain() };
  }

  gather(subject: string, data: string, onReply: (reply: BusDelivery) => void, options?: { headers?: MessageHeaders }): Gathering {
    if (this.nc.isClosed()) throw new BusUnavailableError('NATS connection is closed');
    const inbox = createInbox();
    // Subscribed before publishing on the same connection: no reply can come before it.
    const sub = this.nc.subscribe(inbox, {
      callback: (err, msg) => {
        if (!err) onReply(this.fromNatsMsg(msg));
      },
    });
    try {
      this.nc.publish(this.prefix + subject, encoder.encode(data), { reply: inbox, headers: toNatsHeaders(options?.headers) });
    } catch (error) {
      sub.unsubscribe();
      throw new BusUnavailableError(`NATS publish on ${subject} failed: ${(error as Error).message}`, error);
    }
    return { close: () => sub.unsubscribe() };
  }

  async ping(): Promise<void> {
    if (this.nc.isClosed()) throw new Error('NATS connection is closed');
    await this.nc.flush();
  }

  async close(): Promise<void> {
    if (this.nc.isClosed()) return;
    await this.nc.drain();
  }

  private fromNatsMsg(msg: Msg): BusDelivery {
    return deliveryOf(msg, this.prefix);
  }
}

function toNatsHeaders(headers: MessageHeaders | undefined): MsgHdrs | undefined {
  if (!headers) return undefined;
  const h = natsHeaders();
  for (const [key, value] of Object.entries(headers)) h.set(key, value);
  return h;
}

function deliveryOf(msg: Msg, prefix: string): BusDelivery {
  const headers: MessageHeaders = {};
  if (msg.headers) for (const key of msg.headers.keys()) headers[key.toLowerCase()] = msg.headers.get(key);
  const subject = prefix && msg.subject.startsWith(prefix) ? msg.subject.slice(prefix.length) : msg.subject;
  const delivery: BusDelivery = { subject, data: decoder.decode(msg.data), headers };
  if (msg.reply) {
    delivery.respond = (data, replyHeaders) => {
      msg.respond(encoder.encode(data), { headers: toNatsHeaders(replyHeaders) });
    };
  }
  return delivery;
}
