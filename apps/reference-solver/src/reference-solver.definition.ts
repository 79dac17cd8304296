/**
 * reference-solver's public entry: what tools and end-to-end tests may use of it (the
 * linter lets them import an app only through its `*.definition.ts`). It is no NestJS
 * service, so its entry is the solver itself, its configuration, and the helper that
 * registers solvers with a quote-builder and starts them.
 */
export { ReferenceSolver } from './reference-solver';
export { ReferenceSolverConfig } from './reference-solver.config';
export { registerAndStartSolvers } from './start-solvers';
