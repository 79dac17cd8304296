import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { Agent, buildConnector, request } from 'undici';
import { AddressGuard, RefusedAddressError } from './webhook-address-guard';

/** A 2xx within this long is success; anything else (or nothing) is a failed attempt. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Bytes of a receiver's answer read (and dropped); the rest is not read at all. */
const ANSWER_BYTES = 4_096;

/** One message to one endpoint, as Standard Webhooks sends it. */
export interface OutgoingWebhook {
  /** `webhook-id`: the same on every attempt (the receiver's idempotency key). */
  id: string;
  url: string;
  /** Endpoint secrets (`whsec_…`) to sign with: the current one, and the previous while its overlap lasts. */
  secrets: string[];
  /** The JSON body: `{ type, timestamp, data }`. */
  body: string;
}

/** What one attempt came to. */
export interface AttemptOutcome {
  ok: boolean;
  statusCode?: number;
  /** Why it failed, for the delivery log (no response, refused address, timeout…). */
  error?: string;
  latencyMs: number;
}

/**
 * Sends webhook deliveries: signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, one per secret,
 * space-separated), over connections only to addresses the AddressGuard permits: the host
 * is resolved before each delivery and again when a connection opens (the address it
 * connects to is the one just checked), so a name that resolves to a private address is
 * never connected to. `https` only unless `allowHttp`; redirects are not followed; the
 * answer is read up to 4 KB and dropped.
 */
export class WebhookSender {
  private readonly agent: Agent;

  constructor(
    private readonly guard: AddressGuard,
    private readonly options: { allowHttp: boolean; onConnect?: (host: string, address: string) => void },
  ) {
    const connect = buildConnector({ timeout: DELIVERY_TIMEOUT_MS });
    this.agent = new Agent({
      // Every connection: the host resolved now, and only a permitted address connected to
      // (the TLS server name and Host header stay the endpoint's own).
      connect: (options, callback) => {
        this.guard.resolve(options.hostname).then(
          (addresses) => {
            this.options.onConnect?.(options.hostname, addresses[0]);
            const servername = options.servername ?? (isIP(options.hostname.replace(/^\[|\]$/g, '')) ? undefined : options.hostname);
            connect({ ...options, hostname: addresses[0], ...(servername ? { servername } : {}) }, callback);
          },
          (error: Error) => callback(error, null),
        );
      },
      keepAliveTimeout: 4_000,
      headersTimeout: DELIVERY_TIMEOUT_MS,
      bodyTimeout: DELIVERY_TIMEOUT_MS,
    });
  }

  /** Why an endpoint URL cannot be used, or undefined (checked when it is added, and at every delivery). */
  urlProblem(url: string): string | undefined {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return 'url must be an absolute https:// URL';
    }
    if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && this.options.allowHttp))
      return this.options.allowHttp ? 'url must be an http:// or https:// URL' : 'url must be an https:// URL';
    if (parsed.username || parsed.password) return 'url must not hold credentials';
    return undefined;
  }

  async send(message: OutgoingWebhook): Promise<AttemptOutcome> {
    const started = performance.now();
    const failed = (error: string, statusCode?: number): AttemptOutcome => ({
      ok: false,
      error,
      ...(statusCode ? { statusCode } : {}),
      latencyMs: Math.round(performance.now() - started),
    });
    const problem = this.urlProblem(message.url);
    if (problem) return failed(problem);
    const url = new URL(message.url);
    try {
      await this.guard.resolve(url.hostname);
    } catch (error) {
      const e = error as Error & { code?: string };
      return failed(e instanceof RefusedAddressError ? e.message : `could not be sent: ${e.code ?? e.message}`);
    }
    const timestamp = new Date();
    const signature = message.secrets.map((s) => new Webhook(s).sign(message.id, timestamp, message.body)).join(' ');
    try {
      const answer = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'swap-platform-webhooks/1',
          'webhook-id': message.id,
          'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body: message.body,
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      await readSome(answer.body, ANSWER_BYTES);
      const latencyMs = Math.round(performance.now() - started);
      if (answer.statusCode >= 200 && answer.statusCode < 300) return { ok: true, statusCode: answer.statusCode, latencyMs };
      return { ok: false, statusCode: answer.statusCode, error: `answered ${answer.statusCode}`, latencyMs };
    } catch (error) {
      const e = error as Error & { code?: string; cause?: Error };
      const cause = e.cause instanceof Error ? e.cause : e;
      if (cause instanceof Error && cause.message.includes('not a public address')) return failed(cause.message);
      if (e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT')
        return failed(`no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`);
      return failed(`could not be sent: ${e.code ?? e.message}`);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** Reads at most `limit` bytes of a body, then lets go of the rest. */
async function readSome(body: AsyncIterable<Buffer> & { destroy(): void }, limit: number): Promise<void> {
  let read = 0;
  for await (const chunk of body) {
    read += chunk.length;
    if (read >= limit) break;
  }
  body.destroy();
}
