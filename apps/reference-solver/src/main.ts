import './instrument';
import 'reflect-metadata';
import { ConfigError, loadConfig } from '@swap/config';
import { createLogger } from '@swap/observability';
import { stopOnSignals } from '@swap/service-kit';
import { ReferenceSolver } from './reference-solver';
import { ReferenceSolverConfig } from './reference-solver.config';

/** `npm run start:reference-solver`: one solver process (docs/integrators/solvers.md). */
async function main(): Promise<void> {
  let config: ReferenceSolverConfig;
  try {
    config = loadConfig(ReferenceSolverConfig);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`reference-solver: ${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  const logger = createLogger({ service: 'reference-solver', level: config.LOG_LEVEL }).child({ solver: config.SOLVER_NAME });
  const solver = new ReferenceSolver(config, logger);
  await solver.start();
  stopOnSignals(
    () => solver.stop(),
    10_000,
    () => 'reference-solver',
  );
}

main().catch((error: Error) => {
  process.stderr.write(`reference-solver failed to start: ${error.message}\n`);
  process.exit(1);
});
