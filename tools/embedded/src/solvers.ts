import { loadConfig, operatorCredentials } from '@swap/config';
import { createLogger } from '@swap/observability';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DestinationStream } from 'pino';
import { ReferenceSolver, ReferenceSolverConfig } from '../../../apps/reference-solver/src/reference-solver.definition';
import type { Devnet } from '../../devnet/src/devnet';

/** Different spreads, so "best wins" shows. */
export const EMBEDDED_SOLVERS = [
  { name: 'reference-tight', spreadBps: 20 },
  { name: 'reference-wide', spreadBps: 45 },
] as const;

export interface RunningSolver {
  name: string;
  spreadBps: number;
  wallet: string;
  solver: ReferenceSolver;
}

/** Registered through the operator routes, credentials kept in the data directory so a restart reuses them. */
export async function startEmbeddedSolvers(options: {
  dataDir: string;
  quoteBuilderUrl: string;
  gatewayUrl: string;
  devnet: Devnet;
  logLevel: string;
  logDestination?: DestinationStream;
  /** The registrations then act as its first operator. */
  opsToken?: string;
  env?: Record<string, string>;
}): Promise<RunningSolver[]> {
  const file = join(options.dataDir, 'solvers.json');
  const saved = (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}) as Record<string, string>;
  const authorization: Record<string, string> = options.opsToken
    ? { authorization: `Bearer ${operatorCredentials(options.opsToken)[0].token}` }
    : {};
  const ops = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${options.quoteBuilderUrl}${path}`, {
      method,
      headers: { ...authorization, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`quote-builder ${method} ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };
  const registered = await ops<{ id: string; name: string; status: string }[]>('GET', '/ops/solvers');
  const hub = options.devnet.profile.chains.find((c) => c.hub)!;
  const gateway = new URL(options.gatewayUrl);
  const running: RunningSolver[] = [];
  for (const [i, plan] of EMBEDDED_SOLVERS.entries()) {
    const known = registered.find((s) => s.name === plan.name);
    if (!known || !saved[plan.name]) {
      // Its credential is lost (a new data directory): register it afresh.
      if (known) await ops('DELETE', `/ops/solvers/${known.id}`);
      saved[plan.name] = (await ops<{ credential: string }>('POST', '/ops/solvers', { name: plan.name })).credential;
    }
    const config = loadConfig(ReferenceSolverConfig, {
      SOLVER_NAME: plan.name,
      SOLVER_CREDENTIAL: saved[plan.name],
      MARKETPLACE_URL: `ws://${gateway.host}/v1/intent/solvers/connect`,
      ORACLE_URL: `${options.gatewayUrl}/v1/be/oracle`,
      HUB_RPC_URL: hub.rpcUrls![0],
      INTENTS_CONTRACT: hub.contracts!.intents!,
      SOLVER_PRIVATE_KEY: options.devnet.solvers[i].privateKey,
      SPREAD_BPS: String(plan.spreadBps),
      // The devnet mines at once: a fill need not wait a quarter second to be seen.
      RECEIPT_POLL_MS: '25',
      LOG_LEVEL: options.logLevel,
      ...options.env,
    });
    const logger = createLogger({ service: 'reference-solver', level: options.logLevel, destination: options.logDestination }).child({
      solver: plan.name,
    });
    const solver = new ReferenceSolver(config, logger);
    await solver.start();
    running.push({ name: plan.name, spreadBps: plan.spreadBps, wallet: solver.account.address, solver });
  }
  writeFileSync(file, `${JSON.stringify(saved, null, 2)}\n`, { mode: 0o600 });
  // Connected before the platform says it is up, so the first quote finds them.
  const until = Date.now() + 10_000;
  while (running.some((r) => !r.solver.connected) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return running;
}
