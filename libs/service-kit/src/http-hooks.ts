import { ErrorCode, type ErrorBody } from '@swap/contracts';
import { CREDENTIAL_SHAPE, RequestContext, type Logger, type RequestContextData, type ServiceMetrics } from '@swap/observability';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { inputTextProblem, printableName } from './input-text';
import { platformErrorBody } from './http-edges';
import type { ErrorBodyShaper } from './service-definition';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request context (request id, and the organisation once a key check knows it), entered around every hook and handler. */
    context?: RequestContextData;
    startedAt?: number;
  }
}

/**
 * Request id, request context, metrics and access log on the raw fastify instance: hooks
 * are cheaper than Nest interceptors and also see requests that never reach a handler
 * (404, 413). The context is entered again after body parsing, because stream events of
 * the parser run outside the context entered at `onRequest`.
 */
export function installHttpHooks(
  fastify: FastifyInstance,
  deps: {
    metrics: ServiceMetrics;
    logger: Logger;
    isShuttingDown: () => boolean;
    isRefusing: () => boolean;
    checkInput: boolean;
    errorBodyFor?: ErrorBodyShaper;
  },
): void {
  const { metrics, logger, isShuttingDown, isRefusing, checkInput } = deps;
  const shape = deps.errorBodyFor ?? platformErrorBody;
  const enter = (request: FastifyRequest, _reply: unknown, done: () => void) => {
    RequestContext.run(request.context!, done);
  };
  fastify.addHook('onRequest', (request, reply, done) => {
    request.startedAt = performance.now();
    request.context = { requestId: String(request.id) };
    reply.header('x-request-id', request.context.requestId);
    // While draining, a request on a connection already open is served (the app is whole until
    // its own close starts) and its connection closed after the answer; only once the app is
    // being torn down is a late one refused.
    if (isRefusing()) {
      const body: ErrorBody = {
        statusCode: 503,
        code: ErrorCode.ShuttingDown,
        message: 'The service is shutting down; retry',
        requestId: request.context.requestId,
      };
      void reply.code(503).header('connection', 'close').send(shape(request.url, body));
      return;
    }
    RequestContext.run(request.context, done);
  });
  // Text no route may take (NUL, broken Unicode, absurd nesting): 400 before any handler sees
  // it. Not at the gateway (checkInput false): the service behind checks what it is sent and
  // answers in its own routes' shape.
  fastify.addHook('preValidation', (request, reply, done) => {
    const problem = checkInput ? inputProblem(request) : undefined;
    if (problem) {
      const body: ErrorBody = {
        statusCode: 400,
        code: ErrorCode.ValidationFailed,
        message: problem,
        requestId: request.context?.requestId,
      };
      void reply.code(400).send(body);
      return;
    }
    enter(request, reply, done);
  });
  // A response finished while draining closes its connection, so keep-alive clients cannot
  // hold the server open after their last in-flight request.
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (isShuttingDown()) void reply.header('connection', 'close');
    done(null, payload);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const seconds = (performance.now() - (request.startedAt ?? performance.now())) / 1000;
    const route = request.routeOptions.url ?? '<unmatched>';
    metrics.observeHttp(request.method, route, reply.statusCode, seconds);
    if (logger.isLevelEnabled('info')) {
      const fields = {
        method: request.method,
        path: loggedPath(request.url),
        route,
        statusCode: reply.statusCode,
        ms: Math.round(seconds * 10_000) / 10,
      };
      // The logger's mixin adds requestId (and orgId) from the request context.
      RequestContext.run(request.context ?? { requestId: String(request.id) }, () => logger.info(fields, 'request completed'));
    }
    done();
  });
}

function inputProblem(request: FastifyRequest): string | undefined {
  return (
    repeatedParameter(request.query) ??
    inputTextProblem(request.query, 'query') ??
    inputTextProblem(request.params, 'path') ??
    inputTextProblem(request.body, 'request body')
  );
}

/** No route takes a query parameter more than once: `?a=1&a=2` is refused by name, never read as a list. */
function repeatedParameter(query: unknown): string | undefined {
  if (!query || typeof query !== 'object') return undefined;
  for (const [name, value] of Object.entries(query))
    if (Array.isArray(value)) return `the query parameter ${printableName(name)} must be given once`;
  return undefined;
}

/**
 * What logs say of a request's URL: its path, never the query string (a key sent as
 * `?x-api-key=` reaches no log, whatever the parameter is called), with invitation tokens
 * and anything shaped like a platform credential hidden.
 */
export function loggedPath(url: string): string {
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  return path.replace(/\/invitations\/[^/]+/g, '/invitations/[redacted]').replace(CREDENTIAL_SHAPE, '$1_[redacted]');
}
