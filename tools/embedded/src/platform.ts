import { MemoryCache, MemoryReadModelStore } from '@swap/cache';
import { DefaultAdminPorts, DefaultPorts } from '@swap/contracts';
import { upstreamVariable } from '../../../apps/api-gateway/src/api-gateway.definition';
import { generateSigningKeysEnv, InProcessBus } from '@swap/messaging';
import { asService } from '@swap/observability';
import { migrateService, startServiceFromEnv, type RunningService, type SharedRuntime } from '@swap/service-kit';
import type { DestinationStream } from 'pino';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDevnet, type Devnet } from '../../devnet/src/devnet';
import { startEmbeddedDatabase, type EmbeddedDatabase } from './embedded-database';
import { startEmbeddedSolvers, type RunningSolver } from './solvers';
import { BACKEND_SERVICES, DATABASE_SERVICES, GATEWAY } from '../../platform-services/src';

export interface PlatformOptions {
  dataDir: string;
  /** 0 picks a free one. */
  gatewayPort: number;
  /** `fixed`: the documented ports (3001–3007); `ephemeral`: free ports (tests). */
  servicePorts: 'fixed' | 'ephemeral';
  logLevel: string;
  logDestination?: DestinationStream;
  env?: Record<string, string>;
  /** Unless the variables already name a CHAIN_PROFILE; `fixed` ports start at 8546. */
  devnet?: boolean;
  solverEnv?: Record<string, string>;
}

export interface Platform {
  gatewayUrl: string;
  services: RunningService[];
  databaseUrl: string;
  dataDir: string;
  devnet?: Devnet;
  /** With the devnet only: they fill on its hub. */
  solvers: RunningSolver[];
  stop(): Promise<void>;
}

/** One process: the in-process bus for NATS, PGlite for PostgreSQL, memory caches for Redis. */
export async function startPlatform(options: PlatformOptions): Promise<Platform> {
  const database: EmbeddedDatabase = await startEmbeddedDatabase(options.dataDir);
  const bus = new InProcessBus();
  // One store for the read models every service of the process shares (relay-tracker writes, swap-gateway reads).
  const readModels = new MemoryReadModelStore();
  const started: RunningService[] = [];
  let devnet: Devnet | undefined;
  let solvers: RunningSolver[] = [];
  const stop = async () => {
    for (const s of solvers) await s.solver.stop();
    // The gateway first, so no new work arrives, and each service before the ones it asks over the bus.
    for (const service of [...started].reverse()) await service.close();
    await bus.close();
    await readModels.close();
    await database.close();
    await devnet?.stop();
  };
  try {
    for (const definition of DATABASE_SERVICES) await migrateService(database.url, definition);
    const shared: SharedRuntime = {
      bus,
      cache: (namespace) => new MemoryCache({ namespace }),
      readModels,
      databaseUrl: database.url,
      logDestination: options.logDestination,
    };
    const env = { ...options.env };
    if (options.devnet && !env.CHAIN_PROFILE) {
      devnet = await startDevnet({ dataDir: options.dataDir, basePort: options.servicePorts === 'fixed' ? 8546 : 0 });
      env.CHAIN_PROFILE = devnet.profilePath;
      env.RELAY_API_URL ??= devnet.relayApiUrl;
    }
    // Invitation links point at the gateway, which serves the portal at /portal/.
    const portalUrl: Record<string, string> = options.gatewayPort ? { PORTAL_PUBLIC_URL: `http://127.0.0.1:${options.gatewayPort}` } : {};
    const base = {
      HOST: '127.0.0.1',
      LOG_LEVEL: options.logLevel,
      WORK_QUEUE: 'postgres',
      ...generateSigningKeysEnv(),
      ...portalUrl,
      ...webhookEnv(options.dataDir),
      ...env,
    };
    for (const definition of BACKEND_SERVICES) {
      const fixed = options.servicePorts === 'fixed';
      const ports = {
        PORT: String(fixed ? DefaultPorts[definition.name] : 0),
        ADMIN_PORT: String(fixed ? DefaultAdminPorts[definition.name] : 0),
      };
      // Only the gateway faces clients: the services behind believe its X-Forwarded-For.
      started.push(
        await asService(definition.name, () => startServiceFromEnv(definition, { ...base, TRUSTED_PROXIES: 'loopback', ...ports }, shared)),
      );
    }
    const upstreams: Record<string, string> = {};
    for (const service of started) upstreams[upstreamVariable(service.name)] = service.url;
    const gatewayAdminPort = options.servicePorts === 'fixed' ? DefaultAdminPorts['api-gateway'] : 0;
    // Every client is 127.0.0.1, so the gateway's per-client bound is raised unless it is set.
    const gatewayEnv = {
      UPSTREAM_CONCURRENCY_PER_CLIENT: '1024',
      ...base,
      ...upstreams,
      PORT: String(options.gatewayPort),
      ADMIN_PORT: String(gatewayAdminPort),
    };
    const gateway = await asService(GATEWAY.name, () => startServiceFromEnv(GATEWAY, gatewayEnv, shared));
    started.push(gateway);
    if (devnet) {
      const quoteBuilder = started.find((s) => s.name === 'quote-builder')!;
      const chains = devnet;
      solvers = await asService('reference-solver', () =>
        startEmbeddedSolvers({
          dataDir: options.dataDir,
          quoteBuilderUrl: quoteBuilder.url,
          gatewayUrl: gateway.url,
          devnet: chains,
          logLevel: options.logLevel,
          logDestination: options.logDestination,
          opsToken: env.OPS_TOKEN,
          env: options.solverEnv,
        }),
      );
    }
    // The reference solvers price from the candles: "up" means a quote can be answered.
    if (devnet) {
      await waitForPrices(gateway.url, [...new Set(devnet.profile.tokens.map((t) => t.symbol))], 10_000);
      const hubAssets = [...new Set(devnet.profile.tokens.flatMap((t) => (t.hubAsset ? [t.hubAsset] : [])))];
      await Promise.all(solvers.map((s) => s.solver.warm(hubAssets)));
    }
    return { gatewayUrl: gateway.url, services: started, databaseUrl: database.url, dataDir: database.dataDir, devnet, solvers, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}

/** Bounded; a start does not fail on it. */
async function waitForPrices(gatewayUrl: string, tokenSymbols: string[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  const markets = await fetch(`${gatewayUrl}/v1/be/oracle/markets`)
    .then((r) => r.json() as Promise<{ symbols?: string[] }>)
    .catch(() => ({ symbols: [] as string[] }));
  const symbols = tokenSymbols.filter((s) => markets.symbols?.includes(s));
  const priced = async (symbol: string) => {
    const now = Math.floor(Date.now() / 1000);
    const res = await fetch(
      `${gatewayUrl}/v1/be/oracle/candles?symbol=${encodeURIComponent(symbol)}&interval=1m&from=${now - 120}&to=${now + 60}`,
    ).catch(() => undefined);
    const body = res?.ok ? ((await res.json()) as { candles?: unknown[] }) : undefined;
    return (body?.candles?.length ?? 0) > 0;
  };
  while (Date.now() < deadline) {
    if ((await Promise.all(symbols.map(priced))).every(Boolean)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** A sealing key kept across restarts so stored secrets stay readable; loopback receivers over http (the chart allows neither). */
function webhookEnv(dataDir: string): Record<string, string> {
  const keyFile = join(dataDir, 'webhook-encryption.key');
  if (!existsSync(keyFile)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(keyFile, randomBytes(32).toString('hex'), { mode: 0o600 });
  }
  return {
    WEBHOOK_ENCRYPTION_KEY: readFileSync(keyFile, 'utf8').trim(),
    WEBHOOK_ALLOWED_CIDRS: '127.0.0.0/8,::1/128',
    WEBHOOK_ALLOW_HTTP: 'true',
  };
}
