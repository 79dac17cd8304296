import { AppError } from '@swap/contracts';
import type { RfqOutcome, SolverOutcome } from '../marketplace/rfq.service';
import { pickBest } from './best-quote';

const solver = (id: string) => ({ id, name: `solver-${id}` });

function outcome(parts: Record<string, SolverOutcome | undefined>): RfqOutcome {
  const outcomes = new Map<string, SolverOutcome>();
  for (const [id, o] of Object.entries(parts)) if (o) outcomes.set(id, o);
  return { rfqId: 'r', asked: Object.keys(parts).map(solver), outcomes, sentMs: 0, lastAnswerMs: 1, elapsedMs: 1 };
}

function failure(o: RfqOutcome): AppError {
  try {
    pickBest(o, 300);
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected no winner');
}

describe('pickBest: the best output wins', () => {
  it('takes the largest quoted output, whatever the order of answers', () => {
    const best = pickBest(
      outcome({ a: { quotedAmount: 990n, ms: 5 }, b: { quotedAmount: 1_002n, ms: 40 }, c: { quotedAmount: 1_001n, ms: 1 } }),
      300,
    );
    expect(best.solver.id).toBe('b');
    expect(best.quotedAmount).toBe(1_002n);
  });

  it('breaks a tie in favour of the faster solver', () => {
    expect(pickBest(outcome({ slow: { quotedAmount: 7n, ms: 30 }, fast: { quotedAmount: 7n, ms: 3 } }), 300).solver.id).toBe('fast');
  });

  it('ignores declines and solvers that did not answer, and records every part for audit', () => {
    const best = pickBest(
      outcome({ a: { declined: -4, ms: 2 }, b: undefined, c: { quotedAmount: 5n, ms: 9 }, d: { missed: 'disconnected' } }),
      300,
    );
    expect(best.solver.id).toBe('c');
    expect(best.answers).toEqual([
      { solverId: 'a', solver: 'solver-a', declined: -4, ms: 2 },
      { solverId: 'b', solver: 'solver-b', missed: 'late' },
      { solverId: 'c', solver: 'solver-c', quotedAmount: '5', ms: 9 },
      { solverId: 'd', solver: 'solver-d', missed: 'disconnected' },
    ]);
  });
});

describe('pickBest without a winner: distinct codes', () => {
  it('no solver connected: 503 NO_SOLVER_AVAILABLE', () => {
    const e = failure(outcome({}));
    expect([e.getStatus(), e.code, e.message]).toEqual([
      503,
      'NO_SOLVER_AVAILABLE',
      'No solver is connected to quote this swap; retry later',
    ]);
  });

  it('nobody answered by the deadline: 503 NO_SOLVER_AVAILABLE naming the deadline', () => {
    const e = failure(outcome({ a: undefined, b: { missed: 'invalid' } }));
    expect([e.getStatus(), e.code, e.message]).toEqual([503, 'NO_SOLVER_AVAILABLE', 'No solver answered within 300 ms; retry later']);
  });

  it('every solver said there is no path: 422 NO_ROUTE', () => {
    const e = failure(outcome({ a: { declined: -4 }, b: undefined }));
    expect([e.getStatus(), e.code]).toEqual([422, 'NO_ROUTE']);
  });

  it('a solver lacks the liquidity: 422 NO_LIQUIDITY, even when others have no path', () => {
    expect(failure(outcome({ a: { declined: -4 }, b: { declined: -5 } })).code).toBe('NO_LIQUIDITY');
    expect(failure(outcome({ a: { declined: -8 } })).code).toBe('NO_LIQUIDITY');
  });
});
