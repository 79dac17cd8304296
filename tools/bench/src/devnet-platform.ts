/** The whole platform in cluster mode on the devnet, as the settlement and soak parts of `npm run bench` run it. */
import { loadChainDirectory, type ChainDirectory } from '@swap/chains';
import { migrateService } from '@swap/service-kit';
import { TestNatsServer, unusedPort } from '@swap/testing';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { oracleCandles } from '../../../apps/oracle-candles/src/oracle-candles.definition';
import { registerAndStartSolvers, type ReferenceSolver } from '../../../apps/reference-solver/src/reference-solver.definition';
import { relayTracker } from '../../../apps/relay-tracker/src/relay-tracker.definition';
import { startDevnet, type Devnet } from '../../devnet/src/devnet';
import type { BenchContext } from './oracle-bench';
import { until } from './process-stats';

export interface Service {
  name: string;
  pid?: number;
  port: number;
  exited: Promise<void>;
}

export interface DevnetPlatform {
  devnet: Devnet;
  /** Removed by `stop`. */
  dataDir: string;
  directory: ChainDirectory;
  nats: TestNatsServer;
  /** nats-server's monitoring endpoint. */
  monitor: string;
  sql: pg.Pool;
  /** The env every service gets. */
  common: Record<string, string>;
  quote: Service;
  oracle: Service;
  keyRegistryPort: number;
  swapGateway: Service;
  apiGateway: Service;
  /** The public entry, api-gateway. */
  gateway: string;
  trackers: Service[];
  startService(name: string, env?: Record<string, string>, nodeArgs?: string[]): Promise<Service>;
  /** Every service with its admin port, relay-tracker's replicas numbered: what the soak and faults parts watch. */
  admins(): { name: string; adminPort: number }[];
  /** Stops the running relay-tracker replicas and starts `replicas` new ones. */
  runTrackers(replicas: number, env?: Record<string, string>, nodeArgs?: string[]): Promise<void>;
  stop(): Promise<void>;
}

/** Fresh relay-tracker tables, 2 reference solvers connected, the oracle pricing: ready for swaps. */
export async function startDevnetPlatform(
  ctx: BenchContext,
  options: {
    prefix: string;
    /** Added to every service's env, last; given the devnet and NATS once they run (the faults part puts its proxies between). */
    env?: (started: { devnet: Devnet; natsUrl: string; dataDir: string }) => Promise<Record<string, string>>;
  },
): Promise<DevnetPlatform> {
  const dataDir = mkdtempSync(join(tmpdir(), `${options.prefix}-`));
  const devnet = await startDevnet({ dataDir, basePort: 0 });
  const monitorPort = await unusedPort();
  const nats = await TestNatsServer.start({ config: [`http: "127.0.0.1:${monitorPort}"`] });
  const solvers: ReferenceSolver[] = [];
  const sql = new pg.Pool({ connectionString: ctx.benchDatabaseUrl, max: 50 });
  sql.on('error', () => undefined);
  const stop = async () => {
    for (const s of solvers) await s.stop().catch(() => undefined);
    await sql.end().catch(() => undefined);
    await devnet.stop();
    await nats.remove().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const directory = loadChainDirectory(devnet.profilePath);
    for (const d of [relayTracker, oracleCandles]) await migrateService(ctx.benchDatabaseUrl, d);
    await sql.query(
      'TRUNCATE relay_tracker.submissions, relay_tracker.work_items, relay_tracker.chain_events, relay_tracker.chain_blocks, relay_tracker.chain_followers, relay_tracker.build_records CASCADE',
    );
    const common: Record<string, string> = {
      DATABASE_URL: ctx.benchDatabaseUrl,
      NATS_URL: nats.url,
      REDIS_URL: ctx.redisUrl,
      CACHE_KEY_PREFIX: options.prefix,
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      CHAIN_PROFILE: devnet.profilePath,
      RELAY_API_URL: devnet.relayApiUrl,
      WORK_QUEUE: 'jetstream',
      WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      WEBHOOK_ALLOWED_CIDRS: '127.0.0.0/8',
      WEBHOOK_ALLOW_HTTP: 'true',
      PRICE_SOURCE: 'simulated',
      SIMULATION_TICK_MS: '200',
      FLUSH_INTERVAL_MS: '200',
      CANDLE_CACHE_TTL_MS: '500',
      EXCLUSIVITY_MS: '0',
      SUBMIT_LIMIT_PER_CLIENT: '1000000',
      SUBMIT_LIMIT_PER_WALLET: '1000000',
      ...(await options.env?.({ devnet, natsUrl: nats.url, dataDir })),
    };
    const startService = async (name: string, env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<Service> => {
      const port = await unusedPort();
      const child = await ctx.start(`dist/apps/${name}/src/main.js`, { ...common, ...env, PORT: String(port) }, nodeArgs);
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      await ctx.waitForService(port);
      return { name, pid: child.pid, port, exited };
    };
    const quote = await startService('quote-builder');
    const oracle = await startService('oracle-candles');
    // Families off: a key only names its organisation.
    const keyRegistryPort = await ctx.startKeyRegistry(common, common.DATABASE_URL);
    const swapGateway = await startService('swap-gateway');
    const apiGateway = await startService('api-gateway', {
      UPSTREAM_SWAP_GATEWAY_URL: `http://127.0.0.1:${swapGateway.port}`,
      UPSTREAM_QUOTE_BUILDER_URL: `http://127.0.0.1:${quote.port}`,
      UPSTREAM_ORACLE_CANDLES_URL: `http://127.0.0.1:${oracle.port}`,
      // The bench is one client address holding thousands of status streams.
      STREAMS_PER_CLIENT: '100000',
    });
    const platform: DevnetPlatform = {
      devnet,
      dataDir,
      directory,
      nats,
      monitor: `http://127.0.0.1:${monitorPort}`,
      sql,
      common,
      quote,
      oracle,
      keyRegistryPort,
      swapGateway,
      apiGateway,
      gateway: `http://127.0.0.1:${apiGateway.port}`,
      trackers: [],
      startService,
      admins: () => [
        ...[quote, oracle, swapGateway, apiGateway].map((s) => ({ name: s.name, adminPort: ctx.adminPortOf(s.port) })),
        ...platform.trackers.map((t, i) => ({ name: `relay-tracker ${i + 1}`, adminPort: ctx.adminPortOf(t.port) })),
        { name: 'key-registry', adminPort: ctx.adminPortOf(keyRegistryPort) },
      ],
      async runTrackers(replicas, env = {}, nodeArgs = []) {
        for (const t of platform.trackers) if (t.pid) process.kill(t.pid, 'SIGTERM');
        platform.trackers = [];
        for (let i = 0; i < replicas; i++) platform.trackers.push(await startService('relay-tracker', env, nodeArgs));
      },
      stop,
    };

    solvers.push(
      ...(await registerAndStartSolvers({
        quoteBuilderUrl: `http://127.0.0.1:${quote.port}`,
        oracleUrl: `http://127.0.0.1:${oracle.port}`,
        hub: directory.hub,
        wallets: devnet.solvers,
        namePrefix: options.prefix,
      })),
    );
    await until(
      async () => (await pricedSymbols(`http://127.0.0.1:${oracle.port}`, ['USDC', 'ETH'])) === 2,
      20_000,
      'the oracle has no prices',
    );
    return platform;
  } catch (error) {
    await stop();
    throw error;
  }
}

async function pricedSymbols(oracle: string, symbols: string[]): Promise<number> {
  const now = Math.floor(Date.now() / 1000);
  let priced = 0;
  for (const symbol of symbols) {
    const res = await fetch(`${oracle}/v1/be/oracle/candles?symbol=${symbol}&interval=1m&from=${now - 120}&to=${now + 60}`).catch(
      () => undefined,
    );
    if (res?.ok && ((await res.json()) as { candles: unknown[] }).candles.length > 0) priced++;
  }
  return priced;
}
