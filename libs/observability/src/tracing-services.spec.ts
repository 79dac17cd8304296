import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { asService, detached, endHttpSpan, inHttpSpan, inSpan, startHttpSpan, startTracing } from './tracing';

describe('tracing with every service in one process (npm start): each span names the service it ran in', () => {
  const exporter = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor(exporter);
  const servers: Server[] = [];
  const servicesOf = (name: string) =>
    exporter
      .getFinishedSpans()
      .filter((s) => s.name === name)
      .map((s) => s.resource.attributes['service.name'])
      .sort();

  beforeAll(() => {
    delete process.env.OTEL_SERVICE_NAME;
    startTracing('swap-platform', { servicesInProcess: true, spanProcessors: [processor] });
  });

  afterAll(() => servers.forEach((s) => s.close()));

  const serve = (service: string, handle: () => Promise<void>) =>
    asService(service, async () => {
      const server = createServer((req, res) => {
        const http = startHttpSpan(req.method!, req.url!, req.headers, { requestId: 'r' })!;
        void inHttpSpan(http, () => inSpan(`${service} work`, {}, handle)).then(() => {
          endHttpSpan(http, req.method!, req.url!, 200);
          res.end('ok');
        });
      });
      servers.push(server);
      await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
      return (server.address() as AddressInfo).port;
    });

  const get = (port: number) =>
    new Promise<void>((done, failed) =>
      request({ port, host: '127.0.0.1', path: '/' }, (res) => res.resume().on('end', done))
        .on('error', failed)
        .end(),
    );

  it("names each request's spans, and what a service sets going outside any request, after the service that ran them", async () => {
    const inner = await serve('quote-builder', async () => undefined);
    const outer = await serve('api-gateway', () => get(inner));
    await get(outer);
    await asService(
      'relay-tracker',
      () =>
        new Promise<void>((done) =>
          setTimeout(() => void detached(() => inSpan('settlement step', {}, async () => undefined)).then(done), 1),
        ),
    );
    await inSpan('outside every service', {}, async () => undefined);
    await processor.forceFlush();

    expect({
      servers: servicesOf('GET /'),
      gateway: servicesOf('api-gateway work'),
      callee: servicesOf('quote-builder work'),
      timer: servicesOf('settlement step'),
      process: servicesOf('outside every service'),
    }).toEqual({
      servers: ['api-gateway', 'quote-builder'],
      gateway: ['api-gateway'],
      callee: ['quote-builder'],
      timer: ['relay-tracker'],
      process: ['swap-platform'],
    });
  });
});
