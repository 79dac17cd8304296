import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { Agent, buildConnector, request } from 'undici';
import { AddressGuard, RefusedAddressError } from './webhook-address-guard';

export const DELIVERY_TIMEOUT_MS = 10_000;
const ANSWER_BYTES = 4_096;

export interface OutgoingWebhook {
  /** `webhook-id`: the same on every attempt (the receiver's idempotency key). */
  id: string;
  url: string;
  secrets: string[];
  body: string;
}

export interface AttemptOutcome {
  ok: boolean;
  statusCode?: number;
  error?: string;
  latencyMs: number;
}

/** Signed per Standard Webhooks, sent through the AddressGuard; see docs/architecture/webhooks.md#the-address-guard. */
export class WebhookSender {
  private readonly agent: Agent;

  constructor(
    private readonly guard: AddressGuard,
    private readonly options: { allowHttp: boolean; onConnect?: (host: string, address: string) => void },
  ) {
    const connect = buildConnector({ timeout: DELIVERY_TIMEOUT_MS });
    this.agent = new Agent({
      // Connects to the address just checked; the TLS server name and Host header stay the endpoint's own.
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

  /** Checked when an endpoint is added, and at every delivery. */
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

async function readSome(body: AsyncIterable<Buffer> & { destroy(): void }, limit: number): Promise<void> {
  let read = 0;
  for await (const chunk of body) {
    read += chunk.length;
    if (read >= limit) break;
  }
  body.destroy();
}
