import type { ErrorBody, SolverErrorBody } from './types';

/** An answer outside 2xx; `body` is the platform's error shape or the solver API's `{ detail }`. */
export class SwapApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody | SolverErrorBody | unknown,
    readonly requestId: string | null,
  ) {
    const b = body as Partial<ErrorBody> & Partial<SolverErrorBody>;
    super(`${status} ${b?.code ?? b?.detail?.code ?? ''}: ${b?.message ?? b?.detail?.message ?? 'no message'}`.replace(/\s+/g, ' '));
    this.name = 'SwapApiError';
  }

  /** `CHAIN_NOT_FOUND`, …; undefined for the solver API's shape. */
  get code(): string | undefined {
    return (this.body as Partial<ErrorBody>)?.code;
  }
}
