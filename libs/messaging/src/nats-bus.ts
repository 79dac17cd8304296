import { redactUrl } from '@swap/config';
import { withTimeout, type Logger } from '@swap/observability';
import { readFileSync } from 'node:fs';
import {
  createInbox,
  credsAuthenticator,
  ErrorCode,
  Events,
  headers as natsHeaders,
  nkeyAuthenticator,
  type Authenticator,
  type ConnectionOptions,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
  type NatsError,
  type TlsOptions,
} from 'nats';
import { connectNats } from './nats-connect';
import {
  BusNoRespondersError,
  BusTimeoutError,
  BusUnavailableError,
  isInboxSubject,
  type Bus,
  type BusDelivery,
  type BusSubscription,
  type Gathering,
  type MessageHeaders,
  type RequestOptions,
} from './bus';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export interface NatsBusOptions {
  servers: string;
  name: string;
  connectTimeoutMs?: number;
  subjectPrefix?: string;
  inboxPrefix?: string;
  auth?: NatsAuth;
  /** Set, a server without TLS is refused. */
  tls?: NatsTls;
  onPermissionError?: (refusal: PermissionRefusal) => void;
  logger?: Logger;
}

export type NatsAuth = { user: string; password: string } | { nkeySeed: string } | { credsFile: string };

export interface NatsTls {
  caFile?: string;
  certFile?: string;
  keyFile?: string;
}

export interface PermissionRefusal {
  operation: 'publish' | 'subscription';
  subject: string;
}

export class BusPermissionError extends BusUnavailableError {
  constructor(
    readonly subject: string,
    cause?: unknown,
  ) {
    super(`NATS refused the request on ${subject}: permission denied`, cause);
    this.name = 'BusPermissionError';
  }
}

/** The bus over NATS; see docs/architecture/runtime.md#the-bus. */
export class NatsBus implements Bus {
  readonly kind = 'nats' as const;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
    private readonly inboxPrefix: string | undefined,
    private readonly refused: (refusal: PermissionRefusal) => void,
    private readonly logger?: Logger,
  ) {}

  /** For what the Bus does not cover (JetStream). */
  get connection(): NatsConnection {
    return this.nc;
  }

  get subjectPrefix(): string {
    return this.prefix.replace(/\.$/, '');
  }

  /**
   * Whether the NATS server lets a client in without credentials: a connection is tried with
   * none (the same servers and TLS, no retry). Refused, or unreachable, answers false.
   */
  static async acceptsAnonymous(options: Pick<NatsBusOptions, 'servers' | 'name' | 'tls'>): Promise<boolean> {
    const servers = options.servers.split(',').map((s) => s.trim());
    try {
      const probe = await connectNats({
        servers,
        name: `${options.name ?? 'service'}-anonymous-probe`,
        timeout: 2_000,
        reconnect: false,
        // The server's CA only: a client certificate could log the probe in (certificates mapped to users).
        ...tlsOptions(servers, options.tls?.caFile ? { caFile: options.tls.caFile } : undefined),
      });
      await probe.close();
      return true;
    } catch {
      return false;
    }
  }

  static async connect(options: NatsBusOptions): Promise<NatsBus> {
    const servers = options.servers.split(',').map((s) => s.trim());
    const shown = servers.map(redactUrl).join(', ');
    let nc: NatsConnection;
    try {
      nc = await connectNats({
        servers,
        name: options.name,
        timeout: options.connectTimeoutMs ?? 5_000,
        reconnect: true,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 1_000,
        // Credentials rotated while a replica runs: keep trying (readiness says so).
        ignoreAuthErrorAbort: true,
        // A stack per request cost a few % of CPU on the hot paths; the bus's errors name the subject.
        noAsyncTraces: true,
        ...(options.inboxPrefix ? { inboxPrefix: options.inboxPrefix } : {}),
        ...authOptions(options.auth),
        ...tlsOptions(servers, options.tls),
      });
    } catch (error) {
      throw new BusUnavailableError(`Cannot connect to NATS at ${shown}: ${(error as Error).message}`, error);
    }
    const bus = new NatsBus(
      nc,
      options.subjectPrefix ? `${options.subjectPrefix}.` : '',
      options.inboxPrefix,
      (refusal) => {
        options.logger?.error(
          { operation: refusal.operation, subject: refusal.subject },
          'NATS refused a publish or subscription: permission denied',
        );
        options.onPermissionError?.(refusal);
      },
      options.logger,
    );
    void bus.watchStatus();
    return bus;
  }

  /** A publish has no answer of its own: refusals arrive as status events. */
  private async watchStatus(): Promise<void> {
    for await (const status of this.nc.status()) {
      const context = (status as { permissionContext?: PermissionRefusal }).permissionContext;
      if (status.type === Events.Error && context) this.refused({ operation: context.operation, subject: context.subject });
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
      if (code === ErrorCode.PermissionsViolation) throw new BusPermissionError(subject, error);
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
    const inbox = createInbox(this.inboxPrefix);
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

  /** Drains (subscriptions' messages handled, publishes flushed); past `drainTimeoutMs` it closes as it is, and says so. */
  async close(drainTimeoutMs = 3_000): Promise<void> {
    if (this.nc.isClosed()) return;
    const message = 'NATS did not drain in time; closing the connection as it is';
    try {
      await withTimeout(
        this.nc.drain().catch(() => undefined),
        drainTimeoutMs,
        message,
      );
    } catch {
      this.logger?.warn({ drainTimeoutMs }, message);
      await this.nc.close();
    }
  }

  private fromNatsMsg(msg: Msg): BusDelivery {
    return deliveryOf(msg, this.prefix);
  }
}

function authOptions(auth: NatsAuth | undefined): Partial<ConnectionOptions> {
  if (!auth) return {};
  if ('user' in auth) return { user: auth.user, pass: auth.password };
  const authenticator: Authenticator =
    'nkeySeed' in auth
      ? nkeyAuthenticator(new TextEncoder().encode(auth.nkeySeed))
      : credsAuthenticator(new Uint8Array(readFileSync(auth.credsFile)));
  return { authenticator };
}

/** nats.js alone would go on in plain text with a server that offers no TLS. */
function tlsOptions(servers: string[], tls: NatsTls | undefined): Partial<ConnectionOptions> {
  if (!tls && !servers.some((server) => server.startsWith('tls://'))) return {};
  const options: TlsOptions = {};
  if (tls?.caFile) options.caFile = tls.caFile;
  if (tls?.certFile) options.certFile = tls.certFile;
  if (tls?.keyFile) options.keyFile = tls.keyFile;
  return { tls: options };
}

export function toNatsHeaders(headers: MessageHeaders | undefined): MsgHdrs | undefined {
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
  if (msg.reply && !isInboxSubject(msg.reply)) delivery.refusedReply = msg.reply;
  else if (msg.reply) {
    delivery.respond = (data, replyHeaders) => {
      msg.respond(encoder.encode(data), { headers: toNatsHeaders(replyHeaders) });
    };
  }
  return delivery;
}
