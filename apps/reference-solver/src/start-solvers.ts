import { loadConfig } from '@swap/config';
import { createLogger } from '@swap/observability';
import { ReferenceSolver } from './reference-solver';
import { ReferenceSolverConfig } from './reference-solver.config';

/** One per wallet, named `<namePrefix>-<i>`, for tests and benches that run quote-builder as a process. */
export async function registerAndStartSolvers(options: {
  quoteBuilderUrl: string;
  oracleUrl: string;
  hubRpcUrl: string;
  intentsContract: string;
  wallets: { privateKey: string }[];
  namePrefix: string;
  env?: Record<string, string>;
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
      HUB_RPC_URL: options.hubRpcUrl,
      INTENTS_CONTRACT: options.intentsContract,
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
  return solvers;
}
