import { HttpException } from '@nestjs/common';

/** Clients switch on `code`, never on `message`: messages follow the spec's wording and change with it. */
export const ErrorCode = {
  ValidationFailed: 'VALIDATION_FAILED',
  BadRequest: 'BAD_REQUEST',
  NotFound: 'NOT_FOUND',
  RouteNotFound: 'ROUTE_NOT_FOUND',
  MethodNotAllowed: 'METHOD_NOT_ALLOWED',
  ChainNotFound: 'CHAIN_NOT_FOUND',
  RangeTooLarge: 'RANGE_TOO_LARGE',
  MissingApiKey: 'MISSING_API_KEY',
  InvalidApiKey: 'INVALID_API_KEY',
  ScopeMissing: 'API_KEY_SCOPE_MISSING',
  OrganisationSuspended: 'ORGANISATION_SUSPENDED',
  KeyVerificationUnavailable: 'KEY_VERIFICATION_UNAVAILABLE',
  KeyLimitReached: 'API_KEY_LIMIT_REACHED',
  IllegalModeMove: 'ILLEGAL_MODE_MOVE',
  ChainUnavailable: 'CHAIN_UNAVAILABLE',
  NotImplemented: 'NOT_IMPLEMENTED',
  NotConfigured: 'NOT_CONFIGURED',
  Conflict: 'CONFLICT',
  PayloadTooLarge: 'PAYLOAD_TOO_LARGE',
  UriTooLong: 'URI_TOO_LONG',
  HeadersTooLarge: 'HEADERS_TOO_LARGE',
  RequestTimeout: 'REQUEST_TIMEOUT',
  UnsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  TooManyRequests: 'TOO_MANY_REQUESTS',
  Unauthorized: 'UNAUTHORIZED',
  Forbidden: 'FORBIDDEN',
  CsrfRejected: 'CSRF_REJECTED',
  Internal: 'INTERNAL_ERROR',
  UpstreamUnavailable: 'UPSTREAM_UNAVAILABLE',
  UpstreamTimeout: 'UPSTREAM_TIMEOUT',
  DependencyUnavailable: 'DEPENDENCY_UNAVAILABLE',
  DependencyTimeout: 'DEPENDENCY_TIMEOUT',
  NotReady: 'NOT_READY',
  NoSolverAvailable: 'NO_SOLVER_AVAILABLE',
  NoRoute: 'NO_ROUTE',
  NoLiquidity: 'NO_LIQUIDITY',
  QuoteNotFound: 'QUOTE_NOT_FOUND',
  QuoteExpired: 'QUOTE_EXPIRED',
  QuoteMismatch: 'QUOTE_MISMATCH',
  IntentNotFound: 'INTENT_NOT_FOUND',
  IntentNotOpen: 'INTENT_NOT_OPEN',
  VaultNotFound: 'VAULT_NOT_FOUND',
  TransactionWouldFail: 'TRANSACTION_WOULD_FAIL',
  RelayUnavailable: 'RELAY_UNAVAILABLE',
  RelayRefused: 'RELAY_REFUSED',
  ShuttingDown: 'SHUTTING_DOWN',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface FieldViolation {
  field: string;
  rule: string;
  message: string;
}

/** The one error shape every service and the gateway answer with. */
export interface ErrorBody {
  statusCode: number;
  code: string;
  message: string;
  requestId?: string;
  details?: FieldViolation[] | Record<string, unknown>;
}

const defaultCodes: Record<number, ErrorCode> = {
  400: ErrorCode.BadRequest,
  401: ErrorCode.Unauthorized,
  403: ErrorCode.Forbidden,
  404: ErrorCode.NotFound,
  409: ErrorCode.Conflict,
  408: ErrorCode.RequestTimeout,
  413: ErrorCode.PayloadTooLarge,
  414: ErrorCode.UriTooLong,
  415: ErrorCode.UnsupportedMediaType,
  429: ErrorCode.TooManyRequests,
  431: ErrorCode.HeadersTooLarge,
  502: ErrorCode.UpstreamUnavailable,
  503: ErrorCode.DependencyUnavailable,
  504: ErrorCode.DependencyTimeout,
};

export function defaultCodeFor(statusCode: number): string {
  return defaultCodes[statusCode] ?? (statusCode >= 500 ? ErrorCode.Internal : ErrorCode.BadRequest);
}

/** Crosses the bus as an ErrorBody and is rebuilt, so a 404 raised in quote-builder reaches the HTTP caller as the same 404. */
export class AppError extends HttpException {
  readonly code: string;
  readonly details?: ErrorBody['details'];

  constructor(statusCode: number, code: string, message: string, details?: ErrorBody['details']) {
    super({ statusCode, code, message, details }, statusCode);
    this.code = code;
    this.details = details;
    this.message = message;
  }

  static validation(violations: FieldViolation[]): AppError {
    const message = violations.map((v) => v.message).join('; ');
    return new AppError(400, ErrorCode.ValidationFailed, message, violations);
  }

  static notFound(message: string, code: string = ErrorCode.NotFound): AppError {
    return new AppError(404, code, message);
  }

  static fromBody(body: ErrorBody): AppError {
    return new AppError(body.statusCode, body.code, body.message, body.details);
  }

  toBody(requestId?: string): ErrorBody {
    const body: ErrorBody = { statusCode: this.getStatus(), code: this.code, message: this.message };
    if (requestId) body.requestId = requestId;
    if (this.details !== undefined) body.details = this.details;
    return body;
  }
}

export function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ErrorBody).statusCode === 'number' &&
    typeof (value as ErrorBody).code === 'string' &&
    typeof (value as ErrorBody).message === 'string'
  );
}

/** Without requestId; anything not an AppError, HttpException or ErrorBody is a 500 that reveals nothing. */
export function toErrorBody(exception: unknown): ErrorBody {
  if (exception instanceof AppError) return exception.toBody();
  if (exception instanceof HttpException) return fromHttpException(exception);
  if (!(exception instanceof Error) && isErrorBody(exception)) {
    const { statusCode, code, message, details } = exception;
    return details === undefined ? { statusCode, code, message } : { statusCode, code, message, details };
  }
  const status = (exception as { statusCode?: unknown } | undefined)?.statusCode;
  if (exception instanceof Error && typeof status === 'number' && status >= 400 && status < 500) {
    const message = (exception as { code?: string }).code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? INVALID_JSON : exception.message;
    return { statusCode: status, code: defaultCodeFor(status), message };
  }
  return { statusCode: 500, code: ErrorCode.Internal, message: 'Internal server error' };
}

export function isUnexpected(body: ErrorBody): boolean {
  return body.code === ErrorCode.Internal;
}

const INVALID_JSON = 'Request body is not valid JSON';

function fromHttpException(exception: HttpException): ErrorBody {
  const statusCode = exception.getStatus();
  const response = exception.getResponse();
  let message = exception.message;
  if (typeof response === 'object' && response !== null && 'message' in response) {
    const m = (response as { message: unknown }).message;
    message = Array.isArray(m) ? m.join('; ') : String(m);
  }
  if (statusCode === 400 && /not valid JSON/.test(message)) message = INVALID_JSON;
  // Nest's router answers unknown paths with "Cannot GET /x".
  const unknownRoute = /^Cannot (\w+) (.*)$/.exec(message);
  if (statusCode === 404 && unknownRoute)
    return {
      statusCode,
      code: ErrorCode.RouteNotFound,
      message: `No route for ${unknownRoute[1]} ${cut(unknownRoute[2].split('?')[0], 100)}`,
    };
  // A server-side failure that is not one of ours may describe internals: say nothing of it.
  if (statusCode >= 500) return { statusCode, code: defaultCodeFor(statusCode), message: 'Internal server error' };
  return { statusCode, code: defaultCodeFor(statusCode), message };
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
