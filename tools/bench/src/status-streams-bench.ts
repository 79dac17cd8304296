/** Status streams and webhooks in the settlement part of `npm run bench`; see docs/development.md#the-settlement-part. */
import { Subjects } from '@swap/contracts';
import { MessagingClient, NatsBus, parseSigningKey, RequestSigner } from '@swap/messaging';
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
  /** Resident bytes per open stream. */
  swapGatewayBytes: number;
  apiGatewayBytes: number;
  bareBytes: number;
  /** Transition → arrival, ms, as are the others. */
  latency: number[];
  webhook: number[];
  fanOut: number[];
  bareLatency: number[];
}

function rss(pid: number | undefined): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? 0) * 1024;
}

/** Resolves once every stream has its headers. */
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
      void res.body?.pipeTo(new WritableStream()).catch(() => undefined);
    },
  );
  return { stop: () => abort.abort() };
}

export async function benchStatusStreams(options: {
  gateway: string;
  swapGatewayPid?: number;
  swapGatewayUrl: string;
  apiGatewayPid?: number;
  bare: { url: string; pid?: number };
  swaps: SwapMaker;
  /** NATS: to add the webhook endpoint as partner-portal-api would. */
  keyRegistry: string;
  natsUrl: string;
}): Promise<StreamFigures> {
  const { gateway, swaps, bare } = options;
  // A swap whose transaction never lands stays pending (10 min).
  const real = await swaps.prepare(0, '0x92.sonic');
  await submit(gateway, real);
  const stuck = `0x${randomBytes(32).toString('hex')}`;
  await submit(gateway, { ...real, txHash: stuck as Prepared['txHash'], body: real.body.replace(real.txHash, stuck) });
  const settle = () => new Promise((r) => setTimeout(r, 2_000));
  const streamPath = `/v1/swaps/submit-tx/events?txHash=${stuck}&srcChainKey=${real.srcChainKey}`;
  // Each process measured while fresh: resident memory rarely shrinks after a release.
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

  const prepared = await swaps.batch(LIVE_SWAPS, '0x92.sonic');
  const fanOut: number[] = [];
  const perSwap = Math.ceil(STREAMS_LIVE / LIVE_SWAPS);
  await Promise.all(prepared.map((swap) => followed(gateway, swap, perSwap, fanOut)));

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

/** Counts only events that happened while a stream was open, not its replay. */
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

/** An organisation whose webhook endpoint is a receiver in this process. */
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
  // Signed as partner-portal-api signs it (the run's PORTAL_SIGNING_KEY, main.ts): relay-tracker serves no other.
  const signer = new RequestSigner(parseSigningKey(process.env.PORTAL_SIGNING_KEY!));
  const messaging = new MessagingClient(bus, { timeoutMs: 5_000, signers: { portal: signer } });
  await messaging.request(Subjects.webhookCreate, {
    orgId: String(org.id),
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    actor: 'user:bench',
  });
  await bus.close();
  return {
    headers: { 'x-api-key': String(key.key) },
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

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
