import { ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import { ErrorCode, isUnexpected, toErrorBody, type ErrorBody } from '@swap/contracts';
import { RequestContext, type Logger } from '@swap/observability';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { throwError } from 'rxjs';
import { unavailableDependency } from './dependency-errors';
import { printableText } from './input-text';
import type { RouteMethods } from './route-methods';

/** Every error, HTTP or bus, in one shape; see docs/architecture/runtime.md#validation-and-errors. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(
    private readonly logger: Logger,
    private readonly routes: RouteMethods,
  ) {}

  catch(exception: unknown, host: ArgumentsHost) {
    const body = describeError(exception, this.logger);
    if (host.getType() === 'rpc') return throwError(() => body);
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    body.requestId = String(request.id);
    const path = request.url.split('?')[0];
    const allowed = body.code === ErrorCode.RouteNotFound ? this.routes.allowed(path) : [];
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      Object.assign(body, {
        statusCode: 405,
        code: ErrorCode.MethodNotAllowed,
        message: printableText(`${request.method} is not answered at ${path.slice(0, 100)}; it answers ${allowed.join(', ')}`),
      });
      void reply.header('allow', allowed.join(', '));
    }
    return reply.status(body.statusCode).header('content-type', 'application/json; charset=utf-8').send(body);
  }
}

export function describeError(exception: unknown, logger: Logger): ErrorBody {
  let body = toErrorBody(exception);
  // A database or cache that cannot be reached is the caller's cue to retry, not a bug of ours.
  const dependency = isUnexpected(body) ? unavailableDependency(exception) : undefined;
  if (dependency) {
    body = {
      statusCode: 503,
      code: ErrorCode.DependencyUnavailable,
      message: `${capitalised(dependency)} is unavailable right now; retry in a moment`,
    };
    logger.warn({ err: exception }, `answered 503: ${dependency} is unavailable`);
  } else if (isUnexpected(body)) logger.error({ err: exception }, 'unhandled error');
  // Messages may quote what the caller sent (an unknown chain key): never its control characters.
  body.message = printableText(body.message);
  if (Array.isArray(body.details))
    body.details = body.details.map((d) => ({ ...d, field: printableText(d.field), message: printableText(d.message) }));
  const requestId = RequestContext.requestId();
  return requestId ? { ...body, requestId } : body;
}

function capitalised(text: string): string {
  return text[0].toUpperCase() + text.slice(1);
}
