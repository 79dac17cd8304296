import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One span as an OTLP/JSON export carries it, flattened with its resource's service name. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  links: { traceId: string; spanId: string }[];
  status?: { code?: number; message?: string };
  startTimeUnixNano: string;
  endTimeUnixNano: string;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
type OtlpAttribute = { key: string; value: OtlpValue };
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: (Omit<ReceivedSpan, 'service' | 'attributes' | 'links'> & {
        attributes?: OtlpAttribute[];
        links?: { traceId: string; spanId: string }[];
      })[];
    }[];
  }[];
}

/**
 * An OTLP/HTTP collector on 127.0.0.1 that keeps spans in memory: OTLP/JSON exports
 * (OTEL_EXPORTER_OTLP_PROTOCOL=http/json) are decoded, protobuf ones counted only.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  exports = 0;
  onSpans?: (spans: ReceivedSpan[]) => void;
  private waiters: { predicate: () => boolean; resolve: () => void }[] = [];

  private constructor(
    private readonly server: Server,
    readonly endpoint: string,
    private readonly keep: boolean,
  ) {}

  /** `keep: false`: spans only go to `onSpans` (a long-running collector). */
  static async start(port = 0, options: { keep?: boolean } = {}): Promise<OtlpReceiver> {
    let receiver: OtlpReceiver | undefined;
    const server = createServer((req, res) => {
      if (req.method === 'GET')
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ exports: receiver!.exports }));
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        try {
          const body = Buffer.concat(chunks);
          receiver!.take(req.headers['content-type'] ?? '', req.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body);
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        } catch (error) {
          res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ message: (error as Error).message }));
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    receiver = new OtlpReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, options.keep ?? true);
    return receiver;
  }

  /** Resolves once `predicate` holds over the spans received (checked on each export), or rejects after `timeoutMs` saying what `explain` saw. */
  waitFor(predicate: () => boolean, timeoutMs: number, what = 'the expected spans', explain?: () => unknown): Promise<void> {
    if (predicate()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        const seen = explain ? `; seen: ${JSON.stringify(explain())}` : '';
        reject(new Error(`${what} did not arrive within ${timeoutMs} ms (${this.spans.length} spans received)${seen}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push({ predicate, resolve: done });
    });
  }

  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((s) => s.traceId === traceId);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private take(contentType: string, body: Buffer): void {
    this.exports++;
    if (!contentType.includes('json')) {
      if (!this.keep && this.exports === 1)
        process.stderr.write('protobuf exports are counted, not read: set OTEL_EXPORTER_OTLP_PROTOCOL=http/json\n');
      return;
    }
    const payload = JSON.parse(body.toString('utf8')) as OtlpExport;
    const received = this.spans.length;
    for (const resourceSpans of payload.resourceSpans ?? []) {
      const service = String(valueOf(resourceSpans.resource?.attributes?.find((a) => a.key === 'service.name')?.value) ?? '');
      for (const scope of resourceSpans.scopeSpans ?? [])
        for (const span of scope.spans ?? [])
          this.spans.push({
            ...span,
            service,
            attributes: Object.fromEntries((span.attributes ?? []).map((a) => [a.key, valueOf(a.value)])),
            links: (span.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
          });
    }
    this.onSpans?.(this.spans.slice(received));
    if (!this.keep) this.spans.length = 0;
    for (const waiter of [...this.waiters]) {
      if (!waiter.predicate()) continue;
      this.waiters = this.waiters.filter((w) => w !== waiter);
      waiter.resolve();
    }
  }
}

function valueOf(value: OtlpValue | undefined): unknown {
  if (!value) return undefined;
  return value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue;
}
