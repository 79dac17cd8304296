import type { Logger } from '@swap/observability';
import { createParser } from 'eventsource-parser';
import type { Tick } from '../aggregation/candle-aggregator';
import { MAX_PRICE, priceFromMantissa } from '../prices/decimal-price';
import type { PriceSource } from './price-source';

interface HermesParsedUpdate {
  id: string;
  price: { price: string; conf: string; expo: number; publish_time: number };
}

interface HermesUpdateMessage {
  parsed?: HermesParsedUpdate[];
}

export interface HermesOptions {
  baseUrl: string;
  /** Price symbol → Pyth feed id (hex, with or without 0x). */
  feeds: Record<string, string>;
  logger: Logger;
  /** First reconnect delay; doubles per failure up to maxBackoffMs, with jitter. */
  backoffMs?: number;
  maxBackoffMs?: number;
  requestTimeoutMs?: number;
  /** A stream silent this long is taken as stalled and reconnected (Hermes sends several updates a second). */
  idleTimeoutMs?: number;
}

/** Pyth's Hermes: latest prices at start, then its event stream; see docs/architecture/oracle-candles.md#ingestion. */
export class HermesPriceSource implements PriceSource {
  readonly name = 'hermes';
  readonly simulated = false;
  private readonly symbolOfFeed = new Map<string, string>();
  private abort?: AbortController;
  private running?: Promise<void>;
  private stopped = false;
  failures = 0;
  connected = false;

  constructor(private readonly options: HermesOptions) {
    for (const [symbol, id] of Object.entries(options.feeds)) this.symbolOfFeed.set(id.replace(/^0x/, '').toLowerCase(), symbol);
  }

  async start(onTicks: (ticks: Tick[]) => void): Promise<void> {
    if (this.symbolOfFeed.size === 0) {
      this.options.logger.warn('hermes: no symbol has a Pyth feed id; nothing to stream');
      return;
    }
    this.stopped = false;
    try {
      const res = await fetch(this.url('/v2/updates/price/latest'), {
        signal: AbortSignal.timeout(this.options.requestTimeoutMs ?? 10_000),
      });
      if (!res.ok) throw new Error(`status ${res.status}`);
      onTicks(this.toTicks((await res.json()) as HermesUpdateMessage));
    } catch (error) {
      this.options.logger.warn({ err: error }, 'hermes: latest prices unavailable; waiting for the stream');
    }
    this.running = this.streamLoop(onTicks);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort?.abort();
    await this.running;
  }

  private async streamLoop(onTicks: (ticks: Tick[]) => void): Promise<void> {
    while (!this.stopped) {
      this.abort = new AbortController();
      try {
        const res = await fetch(this.url('/v2/updates/price/stream'), {
          signal: this.abort.signal,
          headers: { accept: 'text/event-stream' },
        });
        if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
        this.connected = true;
        this.options.logger.info('hermes: price stream connected');
        const parser = createParser({
          onEvent: (event) => {
            let ticks: Tick[];
            try {
              ticks = this.toTicks(JSON.parse(event.data) as HermesUpdateMessage);
            } catch (error) {
              this.options.logger.warn({ err: error }, 'hermes: unreadable stream message skipped');
              return;
            }
            this.failures = 0;
            if (ticks.length) onTicks(ticks);
          },
        });
        const decoder = new TextDecoder();
        const abort = this.abort;
        const idleMs = this.options.idleTimeoutMs ?? 30_000;
        let watchdog = setTimeout(() => abort.abort(new Error(`no data for ${idleMs} ms`)), idleMs);
        try {
          for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
            clearTimeout(watchdog);
            watchdog = setTimeout(() => abort.abort(new Error(`no data for ${idleMs} ms`)), idleMs);
            parser.feed(decoder.decode(chunk, { stream: true }));
          }
        } finally {
          clearTimeout(watchdog);
        }
        throw new Error('stream ended');
      } catch (error) {
        this.connected = false;
        if (this.stopped) return;
        this.failures++;
        const delay = this.backoff();
        this.options.logger.warn({ err: error, retryInMs: delay, failures: this.failures }, 'hermes: price stream lost; reconnecting');
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  private backoff(): number {
    const base = this.options.backoffMs ?? 500;
    const max = this.options.maxBackoffMs ?? 30_000;
    const exp = Math.min(max, base * 2 ** Math.min(this.failures - 1, 16));
    return Math.round(exp / 2 + (Math.random() * exp) / 2);
  }

  private url(path: string): string {
    const query = [...this.symbolOfFeed.keys()].map((id) => `ids[]=${id}`).join('&');
    return `${this.options.baseUrl.replace(/\/$/, '')}${path}?${query}&parsed=true`;
  }

  /** Malformed entries are skipped, not fatal. */
  private toTicks(message: HermesUpdateMessage): Tick[] {
    const ticks: Tick[] = [];
    const updates = Array.isArray(message?.parsed) ? message.parsed : [];
    for (const update of updates) {
      const symbol = typeof update?.id === 'string' ? this.symbolOfFeed.get(update.id.replace(/^0x/, '').toLowerCase()) : undefined;
      if (!symbol || !update.price) continue;
      try {
        const { expo, publish_time: publishTime } = update.price;
        if (!Number.isInteger(expo) || Math.abs(expo) > 30) throw new Error(`exponent out of range: ${expo}`);
        if (!Number.isInteger(publishTime) || publishTime <= 0 || publishTime > 1e11)
          throw new Error(`publish_time out of range: ${publishTime}`);
        const price = priceFromMantissa(String(update.price.price), expo);
        if (price <= 0n || price >= MAX_PRICE) throw new Error('price must be positive and below 10^20 USD');
        ticks.push({ symbol, price, timeMs: publishTime * 1000 });
      } catch (error) {
        this.options.logger.warn({ err: error, feed: update.id }, 'hermes: malformed price skipped');
      }
    }
    return ticks;
  }
}
