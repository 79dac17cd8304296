import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { registerTracingMetrics } from './tracing';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Not prom-client's global registry: the embedded default runs all services in one process. */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly httpRequests: Counter<'method' | 'route' | 'status_code'>;
  readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  readonly rpcHandled: Counter<'subject' | 'outcome'>;
  readonly rpcDuration: Histogram<'subject' | 'outcome'>;
  readonly busReply: Histogram<'subject'>;
  readonly busIntakePaused: Gauge;
  readonly ready: Gauge;
  /** Set by the admin server: whether the replica is ready now. */
  readiness?: () => Promise<boolean>;

  constructor(
    readonly service: string,
    options: { defaultMetrics?: boolean } = {},
  ) {
    this.registry.setDefaultLabels({ service });
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
    this.httpRequests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests served, by route pattern and status code',
      labelNames: ['method', 'route', 'status_code'],
      registers: [this.registry],
    });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency, by route pattern and status code',
      labelNames: ['method', 'route', 'status_code'],
      buckets: LATENCY_BUCKETS,
      registers: [this.registry],
    });
    this.rpcHandled = new Counter({
      name: 'bus_messages_handled_total',
      help: 'Bus requests and events handled, by subject and outcome',
      labelNames: ['subject', 'outcome'],
      registers: [this.registry],
    });
    this.rpcDuration = new Histogram({
      name: 'bus_message_duration_seconds',
      help: 'Bus handler latency, by subject and outcome',
      labelNames: ['subject', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers: [this.registry],
    });
    this.busReply = new Histogram({
      name: 'bus_reply_seconds',
      help: "Time to encode and publish a bus request's answer once its handler has it, by subject",
      labelNames: ['subject'],
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025],
      registers: [this.registry],
    });
    this.ready = new Gauge({
      name: 'service_ready',
      help: '1 when this replica is ready (what /readyz answers, worked out at each scrape), 0 when not (dependencies down, recovering, shutting down)',
      registers: [this.registry],
      collect: async () => {
        if (this.readiness) this.ready.set((await this.readiness()) ? 1 : 0);
      },
    });
    registerTracingMetrics(this.registry);
    this.busIntakePaused = new Gauge({
      name: 'bus_intake_paused',
      help: '1 while this replica takes no shared bus work (its required dependencies failed their checks), else 0',
      registers: [this.registry],
    });
  }

  observeHttp(method: string, route: string, statusCode: number, seconds: number): void {
    const labels = { method, route, status_code: String(statusCode) };
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  }

  observeMessage(subject: string, outcome: 'ok' | 'error', seconds: number): void {
    this.rpcHandled.inc({ subject, outcome });
    this.rpcDuration.observe({ subject, outcome }, seconds);
  }

  observeReply(subject: string, seconds: number): void {
    this.busReply.observe({ subject }, seconds);
  }

  refuseMessage(subject: string): void {
    this.rpcHandled.inc({ subject, outcome: 'refused' });
  }

  contentType(): string {
    return this.registry.contentType;
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}
