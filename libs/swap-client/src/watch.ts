import { createParser } from 'eventsource-parser';
import { Webhook } from 'standardwebhooks';
import { SwapApiError } from './errors';
import type { SubmissionStatus } from './types';

/** One transition, as the status stream sends it (and a webhook's data carries it). */
export interface SubmissionEvent {
  /** Its place in the submission's history, from 1: the stream's event id. */
  seq: number;
  status: SubmissionStatus['status'];
  /** The status answer's data as it was at that transition. */
  data: SubmissionStatus;
}

export interface WatchOptions {
  /** Resume after this event (what the last watch saw). */
  after?: number;
  signal?: AbortSignal;
  /** Wait before reconnecting a stream that ended or broke before a terminal status (1 s). */
  reconnectMs?: number;
  /** Connections that fail in a row (network, 5xx, no event stream) before polling instead (3). */
  failuresBeforePolling?: number;
  /** Polling's interval, when it comes to that (3 s). */
  pollIntervalMs?: number;
  fetch?: typeof globalThis.fetch;
  headers?: Record<string, string>;
}

const TERMINAL = new Set(['solved', 'failed']);
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** A refusal that watching again will not change (an unknown submission, a bad parameter). */
export class WatchRefusedError extends SwapApiError {
  constructor(status: number, body: unknown, requestId: string | null) {
    super(status, body, requestId);
    this.name = 'WatchRefusedError';
  }
}

/** Resumes with Last-Event-ID, else polls (docs/integrators/push-status.md#resuming); a 4xx throws WatchRefusedError. */
export async function* watchSubmission(
  baseUrl: string,
  txHash: string,
  srcChainKey: string,
  options: WatchOptions = {},
): AsyncGenerator<SubmissionEvent> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const query = `txHash=${encodeURIComponent(txHash)}&srcChainKey=${encodeURIComponent(srcChainKey)}`;
  const root = baseUrl.replace(/\/$/, '');
  let last = options.after ?? 0;
  let failures = 0;
  while (!options.signal?.aborted) {
    if (failures >= (options.failuresBeforePolling ?? 3)) {
      yield* poll();
      return;
    }
    let res: Response;
    try {
      res = await doFetch(`${root}/v1/swaps/submit-tx/events?${query}`, {
        headers: { accept: 'text/event-stream', ...options.headers, ...(last ? { 'last-event-id': String(last) } : {}) },
        signal: options.signal,
      });
    } catch {
      if (options.signal?.aborted) return;
      failures++;
      await sleep(options.reconnectMs ?? 1_000, options.signal);
      continue;
    }
    if (res.status === 204) return; // the terminal event was the last seen: nothing more will come
    if (res.status >= 400 && res.status < 500 && res.status !== 429)
      throw new WatchRefusedError(res.status, await res.json().catch(() => undefined), res.headers.get('x-request-id'));
    if (!res.ok || !res.body || !res.headers.get('content-type')?.startsWith('text/event-stream')) {
      await res.body?.cancel().catch(() => undefined);
      failures++;
      await sleep(options.reconnectMs ?? 1_000, options.signal);
      continue;
    }
    failures = 0;
    const events: SubmissionEvent[] = [];
    const parser = createParser({
      onEvent: (e) => {
        const seq = Number(e.id);
        if (Number.isInteger(seq) && seq > last)
          events.push({ seq, status: e.event as SubmissionEvent['status'], data: JSON.parse(e.data) });
      },
    });
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        parser.feed(decoder.decode(chunk, { stream: true }));
        while (events.length) {
          const event = events.shift()!;
          if (event.seq !== last + 1) continue; // never out of order: a reconnect asks for it again
          last = event.seq;
          yield event;
          if (TERMINAL.has(event.status)) return;
        }
      }
    } catch {
      if (options.signal?.aborted) return;
    }
    await sleep(options.reconnectMs ?? 1_000, options.signal);
  }

  async function* poll(): AsyncGenerator<SubmissionEvent> {
    while (!options.signal?.aborted) {
      const res = await doFetch(`${root}/v1/swaps/submit-tx/status?${query}`, { headers: options.headers, signal: options.signal }).catch(
        () => undefined,
      );
      if (res?.ok) {
        const data = ((await res.json()) as { data: SubmissionStatus }).data;
        for (let seq = last + 1; seq <= data.history.length; seq++) {
          last = seq;
          yield { seq, status: data.history[seq - 1].status as SubmissionEvent['status'], data };
        }
        if (TERMINAL.has(data.status)) return;
      } else if (res && res.status >= 400 && res.status < 500 && res.status !== 429) {
        throw new WatchRefusedError(res.status, await res.json().catch(() => undefined), res.headers.get('x-request-id'));
      }
      await sleep(options.pollIntervalMs ?? 3_000, options.signal);
    }
  }
}

export interface WebhookMessage {
  type: 'submission.status' | 'submission.terminal' | 'webhook.test';
  timestamp: string;
  data: SubmissionStatus & Record<string, unknown>;
}

/** Standard Webhooks (timestamp within five minutes); throws when not genuine. Pass the raw body text, not re-serialised JSON. */
export function verifyWebhook(
  secret: string,
  body: string | Buffer,
  headers: Record<string, string | string[] | undefined>,
): WebhookMessage {
  const flat: Record<string, string> = {};
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
    const value = headers[name] ?? headers[name.replace(/(^|-)\w/g, (c) => c.toUpperCase())];
    if (value !== undefined) flat[name] = Array.isArray(value) ? value[0] : value;
  }
  return new Webhook(secret).verify(body, flat) as WebhookMessage;
}
