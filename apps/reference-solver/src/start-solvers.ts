import { loadConfig } from '@swap/config';
import { createLogger } from '@swap/observability';
import { ReferenceSolver } from './reference-solver';
import { ReferenceSolverConfig } from './reference-solver.config';

/** One per wallet (`<namePrefix>-<i>`) filling on `hub`, for tests and benches; returned once all are connected. */
export async function registerAndStartSolvers(options: {
  quoteBuilderUrl: string;
  oracleUrl: string;
  hub: { rpcUrls?: string[]; contracts?: { intents?: string } };
  wallets: { privateKey: string }[];
  namePrefix: string;
  env?: Record<string, string>;
  connectedWithinMs?: number;
}): Promise<ReferenceSolver[]> {
  const solvers: ReferenceSolver[] = [];
  for (const [i, wallet] of options.wallets.entries()) {
    const name = `${options.namePrefix}-${i}`;
    const add = await fetch(`${options.quoteBuilderUrl}/ops/solvers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    if (add.status !== 201 && add.status !== 200) throw new Error(`registering solver ${name} answered ${add.status}: ${await add.text()}`);
    const config = loadConfig(ReferenceSolverConfig, {
      SOLVER_NAME: name,
      SOLVER_CREDENTIAL: ((await add.json()) as { credential: string }).credential,
      MARKETPLACE_URL: `${options.quoteBuilderUrl.replace(/^http/, 'ws')}/v1/intent/solvers/connect`,
      ORACLE_URL: `${options.oracleUrl}/v1/be/oracle`,
      HUB_RPC_URL: options.hub.rpcUrls![0],
      INTENTS_CONTRACT: options.hub.contracts!.intents!,
      SOLVER_PRIVATE_KEY: wallet.privateKey,
      PRICE_REFRESH_MS: '500',
      RECEIPT_POLL_MS: '25',
      LOG_LEVEL: 'warn',
      ...options.env,
    });
    const solver = new ReferenceSolver(config, createLogger({ service: 'reference-solver', level: config.LOG_LEVEL }));
    await solver.start();
    solvers.push(solver);
  }
  const within = options.connectedWithinMs ?? 15_000;
  const deadline = Date.now() + within;
  while (!solvers.every((s) => s.connected)) {
    if (Date.now() > deadline) {
      await Promise.all(solvers.map((s) => s.stop()));
      throw new Error(`the solvers did not connect within ${within} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return solvers;
}
