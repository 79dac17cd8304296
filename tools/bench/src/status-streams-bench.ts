/**
 * Status streams in the settlement part of `npm run bench`: open streams
 * (GET /v1/swaps/submit-tx/events through api-gateway) and what they cost, beside a bare
 * Node event-stream server measured in the same run with the same client.
 *  1. memory: STREAMS_IDLE streams held open on one swap that stays pending (its transaction
 *     never lands): swap-gateway's and api-gateway's resident memory before and after, per
 *     stream, beside the bare server's;
 *  2. transition → event: one stream per swap, swaps settled four at a time, while
 *     STREAMS_LIVE other streams are held open; for each live event, its arrival minus its
 *     transition's time (the history entry's `at`, relay-tracker's clock, the same machine);
 *     the same swaps are submitted with an organisation's key whose webhook endpoint is a
 *     receiver in this process: transition → webhook received, beside the stream's figure;
 *  3. fan-out: STREAMS_LIVE streams over LIVE_SWAPS swaps settled at once (every stream busy);
 *  beside the bare server's write → arrival with STREAMS_LIVE streams.
 */
import { Subjects } from '@swap/contracts';
import { MessagingClient, NatsBus } from '@swap/messaging';
import { readEventStream } from '@swap/testing';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setMaxListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { mapLimit, percentile, until } from './process-stats';
import { submit, type Prepared, type SwapMaker } from './settlement-swaps';

const STREAMS_IDLE = Number(process.env.BENCH_STREAMS_IDLE ?? 2000);
const STREAMS_LIVE = Number(process.env.BENCH_STREAMS_LIVE ?? 1000);
const LIVE_SWAPS = 20;

export interface StreamFigures {
  idle: number;
  live: number;
  /** Bytes of resident memory per open stream: swap-gateway's (held directly), api-gateway's (held on its way to swap-gateway), the bare server's. */
  swapGatewayBytes: number;
  apiGatewayBytes: number;
  bareBytes: number;
  /** Transition → event at the client, one stream per swap while STREAMS_LIVE others are open, ms. */
  latency: number[];
  /** Transition → webhook received by a loopback receiver, ms. */
  webhook: number[];
  /** Transition → event with every one of STREAMS_LIVE streams receiving, ms. */
  fanOut: number[];
  /** The bare server's write → arrival, ms. */
  bareLatency: number[];
}

/** Resident memory of a process, bytes (Linux /proc). */
function rss(pid: number | undefined): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? 0) * 1024;
}

/** Opens `count` streams on `url` (held until `stop` aborts them); resolves once every one has its headers. */
async function hold(url: string, count: number): Promise<{ stop: () => void }> {
  const abort = new AbortController();
  setMaxListeners(0, abort.signal);
  // 100 opening at a time: a burst of thousands of connects overflows a listen backlog (not what is measured).
  await mapLimit(
    Array.from({ length: count }, (_, i) => i),
    100,
    async () => {
      const res = await fetch(url, { signal: abort.signal });
      if (res.status !== 200) throw new Error(`a stream answered ${res.status}`);
      // Read and dropped, as a client would.
      void res.body?.pipeTo(new WritableStream()).catch(() => undefined);
    },
  );
  return { stop: () => abort.abort() };
}

export async function benchStatusStreams(options: {
  gateway: string;
  swapGatewayPid?: number;
  /** swap-gateway itself, for streams held without the gateway. */
  swapGatewayUrl: string;
  apiGatewayPid?: number;
  bare: { url: string; pid?: number };
  swaps: SwapMaker;
  /** key-registry (its operator routes answer loopback callers) and the bench's NATS (to add the webhook endpoint as partner-portal-api would). */
  keyRegistry: string;
  natsUrl: string;
}): Promise<StreamFigures> {
  const { gateway, swaps, bare } = options;
  // 1. Memory per idle stream: one swap whose transaction never lands stays pending (10 min).
  const real = await swaps.prepare(0, '0x92.sonic');
  await submit(gateway, real);
  const stuck = `0x${randomBytes(32).toString('hex')}`;
  await submit(gateway, { ...real, txHash: stuck as Prepared['txHash'], body: real.body.replace(real.txHash, stuck) });
  const settle = () => new Promise((r) => setTimeout(r, 2_000));
  const streamPath = `/v1/swaps/submit-tx/events?txHash=${stuck}&srcChainKey=${real.srcChainKey}`;
  // Each process measured while it is fresh (resident memory rarely shrinks after a release):
  // swap-gateway holding the streams directly, then api-gateway holding them on its way to it.
  const direct = { before: rss(options.swapGatewayPid), after: 0 };
  const straight = await hold(`${options.swapGatewayUrl}${streamPath}`, STREAMS_IDLE);
  await settle();
  direct.after = rss(options.swapGatewayPid);
  straight.stop();
  await settle();
  const before = { api: rss(options.apiGatewayPid), bare: rss(bare.pid) };
  const viaGateway = await hold(`${gateway}${streamPath}`, STREAMS_IDLE);
  await settle();
  const after = { api: rss(options.apiGatewayPid), bare: 0 };
  viaGateway.stop();
  const bareIdle = await hold(bare.url, STREAMS_IDLE);
  await settle();
  after.bare = rss(bare.pid);
  bareIdle.stop();

  // 2. One stream per swap, four swaps at a time, while STREAMS_LIVE others are open; each swap's
  // transitions also POSTed to the organisation's webhook endpoint.
  const hooks = await webhookReceiver(options.keyRegistry, options.natsUrl);
  const held = await hold(`${gateway}/v1/swaps/submit-tx/events?txHash=${stuck}&srcChainKey=${real.srcChainKey}`, STREAMS_LIVE);
  const latency: number[] = [];
  for (let i = 0; i < LIVE_SWAPS; i += 4) {
    const group = await swaps.batch(4, '0x92.sonic');
    await Promise.all(group.map((swap) => followed(gateway, swap, 1, latency, hooks.headers)));
  }
  held.stop();
  await until(() => hooks.received.length >= LIVE_SWAPS * 6, 10_000, 'webhooks did not all arrive');
  await hooks.close();

  // 3. Fan-out: STREAMS_LIVE streams over LIVE_SWAPS swaps settled at once.
  const prepared = await swaps.batch(LIVE_SWAPS, '0x92.sonic');
  const fanOut: number[] = [];
  const perSwap = Math.ceil(STREAMS_LIVE / LIVE_SWAPS);
  await Promise.all(prepared.map((swap) => followed(gateway, swap, perSwap, fanOut)));

  // The reference: the bare server writes to as many open streams, the same client reads.
  const bareLatency: number[] = [];
  const bareReads = Array.from({ length: STREAMS_LIVE }, () => {
    const openedAt = Date.now();
    return readEventStream(bare.url, { timeoutMs: 15_000, until: (r) => r.events.length >= 5 }).then((read) => {
      for (const e of read.events) bareLatency.push(openedAt + e.receivedAt - (JSON.parse(e.data) as { at: number }).at);
    });
  });
  await new Promise((r) => setTimeout(r, 1_000));
  for (let i = 0; i < 5; i++) {
    await fetch(bare.url, { method: 'POST' });
    await new Promise((r) => setTimeout(r, 200));
  }
  await Promise.all(bareReads);
  return {
    idle: STREAMS_IDLE,
    live: perSwap * LIVE_SWAPS,
    webhook: hooks.received,
    fanOut,
    swapGatewayBytes: (direct.after - direct.before) / STREAMS_IDLE,
    apiGatewayBytes: (after.api - before.api) / STREAMS_IDLE,
    bareBytes: (after.bare - before.bare) / STREAMS_IDLE,
    latency,
    bareLatency,
  };
}

/**
 * Submits `swap` and follows it on `streams` status streams to its end; pushes, for each
 * event that happened while a stream was open (not its replay), arrival minus transition.
 */
async function followed(
  gateway: string,
  swap: Prepared,
  streams: number,
  into: number[],
  headers: Record<string, string> = {},
): Promise<void> {
  await submit(gateway, swap, headers);
  const url = `${gateway}/v1/swaps/submit-tx/events?txHash=${swap.txHash}&srcChainKey=${swap.srcChainKey}`;
  await Promise.all(
    Array.from({ length: streams }, async () => {
      const openedAt = Date.now();
      const read = await readEventStream(url, { timeoutMs: 120_000 });
      for (const e of read.events) {
        const data = JSON.parse(e.data) as { history: { at: string }[] };
        const at = Date.parse(data.history[Number(e.id) - 1].at);
        if (at >= openedAt + 50) into.push(openedAt + e.receivedAt - at);
      }
    }),
  );
}

/**
 * An organisation with a key (key-registry's operator routes) and a webhook endpoint (asked
 * of relay-tracker over the bus) at a receiver in this process, which records for each
 * delivery its arrival minus its transition's time.
 */
async function webhookReceiver(keyRegistry: string, natsUrl: string) {
  const post = async (url: string, body: unknown) =>
    (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<
      Record<string, unknown>
    >;
  const org = await post(`${keyRegistry}/ops/organisations`, { name: 'Bench Hooks' });
  const key = await post(`${keyRegistry}/ops/organisations/${String(org.id)}/keys`, { name: 'bench' });
  const received: number[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req
      .on('data', (c: Buffer) => (body += c.toString()))
      .on('end', () => {
        const at = Date.now();
        const data = (JSON.parse(body) as { data: { history: { at: string }[] } }).data;
        received.push(at - Date.parse(data.history.at(-1)!.at));
        res.writeHead(204).end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const bus = await NatsBus.connect({ servers: natsUrl, name: 'bench-webhooks' });
  const messaging = new MessagingClient(bus, { timeoutMs: 5_000 });
  await messaging.request(Subjects.webhookCreate, {
    orgId: String(org.id),
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    actor: 'bench',
  });
  await bus.close();
  return {
    headers: { 'x-api-key': String(key.key) },
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The lines the bench prints. */
export function streamLines(f: StreamFigures): string[] {
  const p = (xs: number[], q: number) => (xs.length ? percentile(xs, q).toFixed(0) : 'n/a');
  const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(1)}×` : 'n/a');
  return [
    `  status streams, GET /v1/swaps/submit-tx/events through api-gateway (beside a bare Node event-stream server, same client):`,
    `    transition → event with ${f.live} open streams: p50 ${p(f.latency, 0.5)} ms, p99 ${p(f.latency, 0.99)} ms (${f.latency.length} events, one stream per swap, swaps settled 4 at a time; target p50 < 50, p99 < 200)`,
    `    transition → webhook received by a loopback receiver: p50 ${p(f.webhook, 0.5)} ms, p99 ${p(f.webhook, 0.99)} ms (${f.webhook.length} deliveries of the same swaps; target p50 < 500; ${ratio(percentile(f.webhook, 0.5), percentile(f.latency, 0.5))} the stream's p50)`,
    `    fan-out, ${f.live} streams over ${LIVE_SWAPS} swaps settled at once (every stream receiving): p50 ${p(f.fanOut, 0.5)} ms, p99 ${p(f.fanOut, 0.99)} ms (${f.fanOut.length} events)`,
    `    reference: the bare server writing to ${f.live} streams, write → event p50 ${p(f.bareLatency, 0.5)} ms, p99 ${p(f.bareLatency, 0.99)} ms (transition → event p50 ${ratio(percentile(f.latency, 0.5), percentile(f.bareLatency, 0.5))} of it)`,
    `    memory per open stream (${f.idle} open at once): swap-gateway ${(f.swapGatewayBytes / 1024).toFixed(1)} KB, api-gateway ${(f.apiGatewayBytes / 1024).toFixed(1)} KB (each measured fresh); bare server ${(f.bareBytes / 1024).toFixed(1)} KB (swap-gateway ${ratio(f.swapGatewayBytes, f.bareBytes)} of it)`,
  ];
}
