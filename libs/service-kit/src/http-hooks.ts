import { ErrorCode, type ErrorBody } from '@swap/contracts';
import {
  CREDENTIAL_SHAPE,
  endHttpSpan,
  inHttpSpan,
  RequestContext,
  startHttpSpan,
  tracingEnabled,
  type HttpSpan,
  type Logger,
  type RequestContextData,
  type ServiceMetrics,
} from '@swap/observability';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { inputTextProblem, printableName, type InputProblem } from './input-text';
import { FRAMEWORK_ERRORS, MAX_PATH_SEGMENT, platformErrorBody } from './http-edges';
import type { ErrorBodyShaper } from './service-definition';

declare module 'fastify' {
  interface FastifyRequest {
    context?: RequestContextData;
    startedAt?: number;
    /** Called with the status once answered (the API key guard counts usage with it). */
    responded?: (statusCode: number) => void;
    /** Its server span, when tracing is on (docs/operators/tracing.md). */
    httpSpan?: HttpSpan;
    /** Its path as logged (no query, secrets redacted), worked out once. */
    loggedPath?: string;
  }
}

/** Hooks rather than interceptors: they also see 404s and 413s. See docs/architecture/runtime.md#http-in-every-service. */
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
  // Body parsing resumes outside the request's async context: each hook enters it again.
  const enter = (request: FastifyRequest, _reply: unknown, done: () => void) => {
    if (request.httpSpan) inHttpSpan(request.httpSpan, done);
    else RequestContext.run(request.context!, done);
  };
  fastify.addHook('onRequest', (request, reply, done) => {
    request.startedAt = performance.now();
    request.context = { requestId: String(request.id) };
    // A WebSocket (a solver's session) is no request with an end: no span.
    if (tracingEnabled() && !request.headers.upgrade) {
      request.loggedPath = loggedPath(request.url);
      request.httpSpan = startHttpSpan(request.method, request.loggedPath, request.headers, request.context);
    }
    reply.header('x-request-id', request.context.requestId);
    const refused = refusalBeforeAnyRoute(request, { refusing: isRefusing(), checkInput });
    if (refused) {
      if (refused.close) void reply.header('connection', 'close');
      void reply.code(refused.body.statusCode).send(shape(request.url, { ...refused.body, requestId: request.context.requestId }));
      return;
    }
    enter(request, reply, done);
  });
  // Not at the gateway (checkInput false): the service behind answers in its own routes' shape.
  fastify.addHook('preValidation', (request, reply, done) => {
    const problem = checkInput ? inputProblem(request) : undefined;
    if (problem) {
      const body: ErrorBody = {
        statusCode: 400,
        code: ErrorCode.ValidationFailed,
        message: problem.message,
        requestId: request.context?.requestId,
        details: [problem],
      };
      void reply.code(400).send(body);
      return;
    }
    enter(request, reply, done);
  });
  // So keep-alive clients cannot hold a draining server open after their last request.
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (isShuttingDown()) void reply.header('connection', 'close');
    done(null, payload);
  });
  fastify.addHook('onRequestAbort', (request, done) => {
    if (request.httpSpan) endHttpSpan(request.httpSpan, request.method, request.routeOptions.url ?? '<unmatched>');
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const seconds = (performance.now() - (request.startedAt ?? performance.now())) / 1000;
    const route = request.routeOptions.url ?? '<unmatched>';
    metrics.observeHttp(request.method, route, reply.statusCode, seconds);
    if (request.httpSpan) endHttpSpan(request.httpSpan, request.method, route, reply.statusCode);
    request.responded?.(reply.statusCode);
    if (logger.isLevelEnabled('info')) {
      const fields = {
        method: request.method,
        path: request.loggedPath ?? loggedPath(request.url),
        route,
        statusCode: reply.statusCode,
        ms: Math.round(seconds * 10_000) / 10,
      };
      if (request.httpSpan) inHttpSpan(request.httpSpan, () => logger.info(fields, 'request completed'));
      else RequestContext.run(request.context ?? { requestId: String(request.id) }, () => logger.info(fields, 'request completed'));
    }
    done();
  });
}

function inputProblem(request: FastifyRequest): InputProblem | undefined {
  return (
    repeatedParameter(request.query) ??
    inputTextProblem(request.query, 'query') ??
    inputTextProblem(request.params, 'path') ??
    inputTextProblem(request.body, 'request body')
  );
}

function repeatedParameter(query: unknown): InputProblem | undefined {
  if (!query || typeof query !== 'object') return undefined;
  for (const [name, value] of Object.entries(query))
    if (Array.isArray(value))
      return { field: printableName(name), rule: 'once', message: `the query parameter ${printableName(name)} must be given once` };
  return undefined;
}

/** No query string (a key sent as `?x-api-key=` reaches no log), no token or credential. */
export function loggedPath(url: string): string {
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  if (!path.includes('_') && !path.includes('/invitations/') && !path.includes('%')) return path;
  return decodedPath(path)
    .replace(/\/invitations\/[^/]+/g, '/invitations/[redacted]')
    .replace(CREDENTIAL_SHAPE, '$1_[redacted]');
}

function decodedPath(path: string): string {
  if (!path.includes('%')) return path;
  return decoded(path) ?? path.replace(/%[0-9a-fA-F]{2}/g, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)));
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function refusalBeforeAnyRoute(
  request: FastifyRequest,
  state: { refusing: boolean; checkInput: boolean },
): { body: Omit<ErrorBody, 'requestId'>; close?: boolean } | undefined {
  // While draining, requests are still served (onSend closes their connection); only teardown refuses.
  if (state.refusing)
    return { body: { statusCode: 503, code: ErrorCode.ShuttingDown, message: 'The service is shutting down; retry' }, close: true };
  if (request.raw.httpVersion === '1.1' && request.headers.host === undefined)
    return { body: { statusCode: 400, code: ErrorCode.BadRequest, message: 'An HTTP/1.1 request needs a Host header' }, close: true };
  // The router answers 414 only where no catch-all route takes the path instead (the portal's, the explorer's).
  if (state.checkInput && hasLongSegment(request.url)) return { body: FRAMEWORK_ERRORS.FST_ERR_MAX_PARAM_LENGTH! };
  return undefined;
}

function hasLongSegment(url: string): boolean {
  if (url.length <= MAX_PATH_SEGMENT) return false;
  const path = url.split('?', 1)[0]!;
  return path.split('/').some((segment) => segment.length > MAX_PATH_SEGMENT && decodedLength(segment) > MAX_PATH_SEGMENT);
}

function decodedLength(segment: string): number {
  return (decoded(segment) ?? segment).length;
}
