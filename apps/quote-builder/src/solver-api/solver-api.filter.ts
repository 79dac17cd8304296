import { ArgumentsHost, Catch, Inject, type ExceptionFilter } from '@nestjs/common';
import { ErrorCode, SolverErrorCode, type SolverErrorBody } from '@swap/contracts';
import type { Logger } from '@swap/observability';
import { describeError, LOGGER } from '@swap/service-kit';
import type { FastifyReply } from 'fastify';

/** The platform's error codes in the public solver API's negative codes. */
const PROTOCOL_CODES: Partial<Record<string, number>> = {
  [ErrorCode.NoRoute]: SolverErrorCode.NoPathFound,
  [ErrorCode.NoLiquidity]: SolverErrorCode.NoPrivateLiquidity,
  [ErrorCode.QuoteNotFound]: SolverErrorCode.QuoteNotFound,
  [ErrorCode.QuoteMismatch]: SolverErrorCode.IntentDataNotMatchQuote,
  [ErrorCode.IntentNotFound]: SolverErrorCode.IntentNotFound,
  [ErrorCode.QuoteExpired]: SolverErrorCode.QuoteExpired,
  [ErrorCode.NoSolverAvailable]: SolverErrorCode.Stopped,
};

/**
 * Errors of the solver API in its own wire format, `{ detail: { code, message } }` with
 * the protocol's negative codes (protocol-facts.md), and the HTTP status the platform
 * would give. The request id stays in the `x-request-id` header.
 */
@Catch()
export class SolverApiExceptionFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost) {
    const error = describeError(exception, this.logger);
    const detailCode = (error.details as { protocolCode?: unknown } | undefined)?.protocolCode;
    const code = typeof detailCode === 'number' ? detailCode : (PROTOCOL_CODES[error.code] ?? SolverErrorCode.Unknown);
    const body: SolverErrorBody = { detail: { code, message: error.message } };
    return host.switchToHttp().getResponse<FastifyReply>().status(error.statusCode).header('content-type', 'application/json; charset=utf-8').send(body);
  }
}
