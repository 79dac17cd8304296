/** The public entry tools and end-to-end tests may import; no NestJS service, so the solver itself. */
export { ReferenceSolver } from './reference-solver';
export { ReferenceSolverConfig } from './reference-solver.config';
export { registerAndStartSolvers } from './start-solvers';
