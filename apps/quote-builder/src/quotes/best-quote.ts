import { AppError, ErrorCode, SolverErrorCode, type QuoteAnswer } from '@swap/contracts';
import type { RfqOutcome } from '../marketplace/rfq.service';
import type { AuthenticatedSolver } from '../marketplace/solver-accounts.service';

/** Decline codes that mean "a path exists, but not the liquidity for it". */
const LIQUIDITY_CODES = new Set<number>([
  SolverErrorCode.NoPrivateLiquidity,
  SolverErrorCode.QuoteNotFound,
  SolverErrorCode.MaxInputAmount,
]);

export interface BestQuote {
  solver: AuthenticatedSolver;
  quotedAmount: bigint;
  answers: QuoteAnswer[];
}

/** The largest output, ties to the faster solver; else 503 NO_SOLVER_AVAILABLE, 422 NO_LIQUIDITY or 422 NO_ROUTE. */
export function pickBest(outcome: RfqOutcome, deadlineMs: number): BestQuote {
  const answers: QuoteAnswer[] = outcome.asked.map((solver) => {
    const o = outcome.outcomes.get(solver.id);
    const base = { solverId: solver.id, solver: solver.name };
    if (!o) return { ...base, missed: 'late' };
    if (o.quotedAmount !== undefined) return { ...base, quotedAmount: o.quotedAmount.toString(), ms: o.ms };
    if (o.declined !== undefined) return { ...base, declined: o.declined, ...(o.message ? { reason: o.message } : {}), ms: o.ms };
    return { ...base, missed: o.missed ?? 'disconnected' };
  });
  let best: { solver: AuthenticatedSolver; amount: bigint; ms: number } | undefined;
  for (const solver of outcome.asked) {
    const o = outcome.outcomes.get(solver.id);
    if (o?.quotedAmount === undefined) continue;
    const ms = o.ms ?? Number.MAX_SAFE_INTEGER;
    if (!best || o.quotedAmount > best.amount || (o.quotedAmount === best.amount && ms < best.ms))
      best = { solver, amount: o.quotedAmount, ms };
  }
  if (best) return { solver: best.solver, quotedAmount: best.amount, answers };

  if (outcome.asked.length === 0)
    throw new AppError(503, ErrorCode.NoSolverAvailable, 'No solver is connected to quote this swap; retry later');
  const declined = answers.filter((a) => a.declined !== undefined);
  // What the solvers said (an amount too small, say), so the caller can act on it.
  const reasons = [...new Set(declined.map((a) => a.reason).filter((r): r is string => Boolean(r)))].slice(0, 5);
  if (declined.some((a) => LIQUIDITY_CODES.has(a.declined!))) {
    throw new AppError(422, ErrorCode.NoLiquidity, 'No solver has the liquidity for this swap now; try a smaller amount or retry later', {
      solvers: answers.length,
      reasons,
    });
  }
  if (declined.length > 0)
    throw new AppError(422, ErrorCode.NoRoute, 'No solver can route this pair', { solvers: answers.length, reasons });
  throw new AppError(503, ErrorCode.NoSolverAvailable, `No solver answered within ${deadlineMs} ms; retry later`, {
    asked: answers.length,
  });
}
