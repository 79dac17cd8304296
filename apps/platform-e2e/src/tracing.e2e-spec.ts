import { loadChainDirectory, type ChainDirectory } from '@swap/chains';
import { WorkQueues, type BuildResponse, type EvmTx } from '@swap/contracts';
import { scopedNames } from '@swap/messaging';
import { migrateService } from '@swap/service-kit';
import {
  createTestDatabase,
  eventually,
  intentRequestBody,
  OtlpReceiver,
  removeTestStreams,
  RUN_PREFIX,
  testInfra,
  testSigningKeysEnv,
  uniqueId,
  type ReceivedSpan,
  postJson,
} from '@swap/testing';
import { connect, type NatsConnection } from 'nats';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createPublicClient, createWalletClient, defineChain, http, maxUint256, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { keyRegistry } from '../../key-registry/src/key-registry.definition';
import { oracleCandles } from '../../oracle-candles/src/oracle-candles.definition';
import { quoteBuilder } from '../../quote-builder/src/quote-builder.definition';
import { registerAndStartSolvers, type ReferenceSolver } from '../../reference-solver/src/reference-solver.definition';
import { relayTracker } from '../../relay-tracker/src/relay-tracker.definition';
import { DEV_KEYS, startDevnet, type Devnet } from '../../../tools/devnet/src/devnet';
import { startService, stopProcess, type Spawned } from './processes';

jest.setTimeout(180_000);

/** A W3C traceparent the test starts its requests with: its trace id is what every span must carry. */
function traceparent(): { header: string; traceId: string; spanId: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { header: `00-${traceId}-${spanId}-01`, traceId, spanId };
}

/** Every span of the trace hangs from another of it, or from the caller's span: one tree. */
function unjoined(spans: ReceivedSpan[], callerSpanId: string): ReceivedSpan[] {
  const ids = new Set(spans.map((s) => s.spanId));
  return spans.filter((s) => !s.parentSpanId || (!ids.has(s.parentSpanId) && s.parentSpanId !== callerSpanId));
}

/**
 * Tracing in cluster mode (docs/operators/tracing.md): every service exports OTLP/JSON to a
 * collector in this test, which keeps the spans in memory; settlement on JetStream.
 */
describe('traces across the gateway, the bus, the marketplace and settlement (cluster mode, JetStream)', () => {
  let devnet: Devnet;
  let dataDir: string;
  let db: { url: string; drop: () => Promise<void> };
  let directory: ChainDirectory;
  let collector: OtlpReceiver;
  let common: Record<string, string>;
  let gateway: string;
  let gatewayProcess: Spawned;
  let quotes: Spawned;
  let quoteAdmin: string;
  const processes: Spawned[] = [];
  const solvers: ReferenceSolver[] = [];
  let watcher: NatsConnection | undefined;

  const start = async (name: string, env: Record<string, string> = {}) => {
    const service = await startService(name, { ...common, ...env });
    processes.push(service.p);
    return service;
  };
  const user = privateKeyToAccount(DEV_KEYS[1]);
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) => postJson(`${gateway}${path}`, body, headers);
  const token = (symbol: string) => directory.tokensOf('0x92.sonic').find((t) => t.symbol === symbol)!.address as Address;

  beforeAll(async () => {
    collector = await OtlpReceiver.start();
    dataDir = await mkdtemp(join(tmpdir(), 'tracing-'));
    devnet = await startDevnet({ dataDir, basePort: 0 });
    directory = loadChainDirectory(devnet.profilePath);
    db = await createTestDatabase();
    for (const d of [quoteBuilder, relayTracker, oracleCandles, keyRegistry]) await migrateService(db.url, d);
    common = {
      ...testSigningKeysEnv,
      NATS_URL: testInfra.natsUrl,
      NATS_ALLOW_ANONYMOUS: 'true',
      NATS_SUBJECT_PREFIX: RUN_PREFIX,
      REDIS_URL: testInfra.redisUrl,
      CACHE_KEY_PREFIX: uniqueId('tracing'),
      DATABASE_URL: db.url,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      CHAIN_PROFILE: devnet.profilePath,
      RELAY_API_URL: devnet.relayApiUrl,
      WORK_QUEUE: 'jetstream',
      WORK_LEASE_MS: '2000',
      STEP_POLL_MS: '300',
      FOLLOWER_LEASE_MS: '2000',
      SIMULATION_TICK_MS: '200',
      FLUSH_INTERVAL_MS: '200',
      EXCLUSIVITY_MS: '0',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    };
    // key-registry signs the key set swap-gateway checks keys with (families off: no key needed).
    await start('key-registry');
    const quote = await start('quote-builder');
    quotes = quote.p;
    quoteAdmin = quote.admin;
    const oracle = await start('oracle-candles');
    const swaps = await start('swap-gateway');
    // The first replica waits long on a bus request: the one it is killed in (below) must not time out first.
    const tracker = await start('relay-tracker', { RPC_TIMEOUT_MS: '60000' });
    const edge = await start('api-gateway', {
      LOG_LEVEL: 'info',
      UPSTREAM_SWAP_GATEWAY_URL: swaps.url,
      UPSTREAM_QUOTE_BUILDER_URL: quote.url,
      UPSTREAM_RELAY_TRACKER_URL: tracker.url,
      UPSTREAM_ORACLE_CANDLES_URL: oracle.url,
    });
    gateway = edge.url;
    gatewayProcess = edge.p;
    solvers.push(
      ...(await registerAndStartSolvers({
        quoteBuilderUrl: quote.url,
        oracleUrl: oracle.url,
        hub: directory.hub,
        wallets: devnet.solvers,
        namePrefix: 'traced',
        connectedWithinMs: 10_000,
      })),
    );
  });

  const send = async (tx: EvmTx): Promise<Hex> => {
    const hub = directory.hub;
    const chain = defineChain({
      id: hub.chainId as number,
      name: hub.name,
      nativeCurrency: { name: 'S', symbol: 'S', decimals: 18 },
      rpcUrls: { default: { http: hub.rpcUrls! } },
    });
    const wallet = createWalletClient({ chain, transport: http(), account: user });
    const hash = await wallet.sendTransaction({ to: tx.to as Address, data: tx.data as Hex, value: BigInt(tx.value) });
    const receipt = await createPublicClient({ chain, transport: http(), pollingInterval: 100 }).waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    return hash;
  };
  const quoteBody = (amount: string) => ({
    tokenSrc: token('USDC'),
    tokenSrcChainKey: '0x92.sonic',
    tokenDst: token('WETH'),
    tokenDstChainKey: '0x92.sonic',
    amount,
    quoteType: 'exact_input',
    srcAddress: user.address,
    dstAddress: user.address,
  });

  it('follows a quote from api-gateway through swap-gateway and the bus to quote-builder, a span per solver asked', async () => {
    const caller = traceparent();
    const quote = await post('/v1/swaps/quote', quoteBody('2000000'), { traceparent: caller.header });
    expect([quote.status, quote.body.message]).toEqual([200, undefined]);
    const spans = () => collector.trace(caller.traceId);
    const asked = () => spans().filter((s) => s.name.startsWith('rfq solver '));
    const services = () => new Set(spans().map((s) => s.service));
    await collector.waitFor(
      () => asked().length === solvers.length && ['api-gateway', 'swap-gateway', 'quote-builder'].every((s) => services().has(s)),
      20_000,
      "the quote's spans",
    );
    // Parents are exported after their children: the tree is whole once the gateway's own span is in.
    await collector.waitFor(() => unjoined(spans(), caller.spanId).length === 0, 10_000, 'a whole tree');
    const named = (name: string) => spans().find((s) => s.name === name);
    expect(named('quote-builder.quotes.request.v1 request')).toMatchObject({ service: 'swap-gateway', kind: 3 });
    expect(named('quote-builder.quotes.request.v1 process')).toMatchObject({ service: 'quote-builder', kind: 2 });
    const rfq = named('rfq')!;
    expect(rfq.attributes['rfq.solvers_asked']).toBe(solvers.length);
    expect(asked().map((s) => [s.parentSpanId, s.attributes['rfq.result']])).toEqual(solvers.map(() => [rfq.spanId, 'quoted']));
    // The caller's span → the gateway's server span → swap-gateway's, which the gateway's context reached in the proxied headers.
    const edge = spans().filter((s) => s.parentSpanId === caller.spanId);
    expect(edge.map((s) => [s.service, s.name, s.kind])).toEqual([['api-gateway', 'POST /v1/swaps/*', 2]]);
    // The gateway's access line carries the trace and its own span.
    const logged = gatewayProcess.stdout
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.msg === 'request completed' && line.path === '/v1/swaps/quote');
    expect(logged).toMatchObject({ traceId: caller.traceId, spanId: edge[0].spanId });
    expect(spans().find((s) => s.service === 'swap-gateway' && s.kind === 2)).toMatchObject({
      name: 'POST /v1/swaps/quote',
      parentSpanId: edge[0].spanId,
      attributes: { 'http.route': '/v1/swaps/quote', 'http.response.status_code': 200 },
    });
    // What the exports did is on the service's own metrics: quote-builder's spans reached the collector, none lost.
    const metrics = await (await fetch(`${quoteAdmin}/metrics`)).text();
    expect(Number(/^otel_spans_total\{[^}]*outcome="exported"[^}]*\} (\d+)/m.exec(metrics)?.[1])).toBeGreaterThan(0);
    expect(metrics).not.toMatch(/^otel_spans_total\{[^}]*outcome="(dropped|export_failed)"/m);
  });

  it('links a swap’s settlement steps to its submit, across a JetStream redelivery to another relay-tracker replica', async () => {
    const approval = await post('/v1/swaps/approve', {
      ...intentRequestBody({
        srcChainKey: '0x92.sonic',
        dstChainKey: '0x92.sonic',
        inputToken: token('USDC'),
        outputToken: token('WETH'),
        inputAmount: maxUint256.toString(),
        user: user.address,
      }),
      deadline: '0',
    });
    if (approval.body.tx) await send(approval.body.tx);
    const quote = await post('/v1/swaps/quote?includeTxData=true', quoteBody('3000000'));
    expect(quote.status).toBe(200);
    const txData = quote.body.txData as BuildResponse & { tx: EvmTx };
    const txHash = await send(txData.tx);

    // quote-builder frozen: the step handing the intent to the solvers waits on it, holding its work item;
    // the replica holding it is killed, so JetStream hands the item to a new replica after the ack wait.
    const rows = new pg.Pool({ connectionString: db.url, max: 1 });
    const statusOf = async () =>
      (
        await rows.query<{ status: string }>(`SELECT status::text AS status FROM relay_tracker.submissions WHERE tx_hash = $1`, [
          txHash.toLowerCase(),
        ])
      ).rows[0]?.status;
    const caller = traceparent();
    // What the test watches: the replica's request to the frozen quote-builder (a listener that never answers), and the item's delivery state.
    const nc = (watcher = await connect({ servers: testInfra.natsUrl }));
    const askedToExecute = nc.subscribe(`${RUN_PREFIX}.quote-builder.intents.execute.v1`, { max: 1 });
    const queue = scopedNames({ ...WorkQueues.settlement, prefix: RUN_PREFIX });
    const settlement = async () => {
      const info = await (await nc.jetstreamManager()).consumers.info(queue.stream, queue.consumer);
      return {
        pending: info.num_pending,
        inHand: info.num_ack_pending,
        redelivered: info.num_redelivered,
        delivered: info.delivered.consumer_seq,
      };
    };
    const seen: unknown[] = [];
    let first: Spawned | undefined;
    quotes.child.kill('SIGSTOP');
    try {
      const submitted = await post(
        '/v1/swaps/submit-tx',
        { txHash, srcChainKey: '0x92.sonic', walletAddress: user.address, intent: txData.intent, relayData: txData.relayData.payload },
        { traceparent: caller.header },
      );
      expect(submitted).toMatchObject({ status: 200, body: { data: { status: 'inserted' } } });
      // Killed only once it waits on quote-builder, its item in hand (not before: a step that had not sent yet could still end the turn).
      for await (const _request of askedToExecute) break;
      expect(await statusOf()).toBe('posting_execution');
      seen.push({ beforeKill: await settlement() });
      // Its spans so far exported (the submit's among them) before the replica dies.
      await collector.waitFor(() => collector.trace(caller.traceId).some((x) => x.service === 'relay-tracker'), 10_000, 'the submit span');
      first = processes.find((p) => p.child.spawnargs.some((a) => a.includes('relay-tracker')))!;
      first.child.kill('SIGKILL');
      await first.exited;
    } finally {
      quotes.child.kill('SIGCONT');
    }
    seen.push({ afterKill: await settlement() });
    await start('relay-tracker');
    seen.push({ started: await settlement() });
    await eventually(async () => ((await statusOf()) === 'solved' ? true : undefined), 60_000, 100).finally(() => rows.end());
    seen.push({ solved: await settlement() });

    const linked = (s: ReceivedSpan) => s.links.some((l) => l.traceId === caller.traceId);
    const steps = () =>
      collector.spans.filter((s) => s.name.startsWith('settlement step ') && s.attributes['swap.tx_hash'] === txHash.toLowerCase());
    const redelivered = () =>
      collector.spans.filter((s) => s.name === 'settlement turn' && Number(s.attributes['messaging.delivery.attempt']) >= 2 && linked(s));
    await collector.waitFor(
      () => redelivered().length > 0 && steps().some((s) => s.attributes['swap.status'] === 'posted_execution'),
      20_000,
      'the redelivered turn and the last step',
      // A failure says what was seen instead: the turns, the steps, the item's state, the killed replica's last words.
      () => ({
        turns: collector.spans
          .filter((s) => s.name === 'settlement turn')
          .map((s) => [s.attributes['messaging.delivery.attempt'], linked(s)]),
        steps: steps().map((s) => [s.attributes['swap.status'], s.attributes['swap.step.outcome']]),
        item: seen,
        killed: [...(first?.stdout ?? []), ...(first?.stderr ?? [])].slice(-10),
      }),
    );
    expect(redelivered()[0]).toMatchObject({ service: 'relay-tracker', kind: 5 });
    expect(steps().filter((s) => !linked(s))).toEqual([]);
    expect(steps().map((s) => s.attributes['swap.status'])).toEqual(expect.arrayContaining(['posting_execution', 'posted_execution']));
    await collector.waitFor(() => steps().some((s) => s.attributes['swap.step.outcome'] === 'moved to solved'), 20_000, 'the solving step');
    const submit = collector.trace(caller.traceId);
    expect(submit.find((x) => x.name === 'relay-tracker.submissions.submit.v1 process')).toMatchObject({
      service: 'relay-tracker',
      attributes: { 'swap.tx_hash': txHash.toLowerCase(), 'swap.src_chain': '0x92.sonic' },
    });
    expect(new Set(submit.map((s) => s.service))).toEqual(new Set(['api-gateway', 'swap-gateway', 'relay-tracker']));
  });

  afterAll(async () => {
    await watcher?.close();
    for (const s of solvers) await s.stop();
    for (const p of processes) await stopProcess(p);
    await devnet?.stop();
    await db?.drop();
    await removeTestStreams();
    await collector?.close();
    await rm(dataDir, { recursive: true, force: true });
  });
});
