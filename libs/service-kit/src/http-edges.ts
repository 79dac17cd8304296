import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ErrorCode, type ErrorBody } from '@swap/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBodyShaper } from './service-definition';

/** The edges of HTTP no route sees; see docs/architecture/runtime.md#http-in-every-service. */
export const platformErrorBody: ErrorBodyShaper = (_url, body) => body;

export const MAX_PATH_SEGMENT = 100;

export const FRAMEWORK_ERRORS: Record<string, Omit<ErrorBody, 'requestId'>> = {
  FST_ERR_BAD_URL: {
    statusCode: 400,
    code: ErrorCode.BadRequest,
    message: 'The request path is not a valid URL (a malformed percent-escape)',
  },
  FST_ERR_MAX_PARAM_LENGTH: {
    statusCode: 414,
    code: ErrorCode.UriTooLong,
    message: `A path segment is longer than ${MAX_PATH_SEGMENT} characters`,
  },
  FST_ERR_ASYNC_CONSTRAINT: { statusCode: 400, code: ErrorCode.BadRequest, message: 'The request could not be routed' },
};

export function frameworkErrorAnswer(shape: ErrorBodyShaper = platformErrorBody) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const known = FRAMEWORK_ERRORS[error.code] ?? {
      statusCode: 400,
      code: ErrorCode.BadRequest,
      message: 'The request could not be routed',
    };
    const requestId = String(request.id);
    void reply
      .code(known.statusCode)
      .header('x-request-id', requestId)
      .header('content-type', 'application/json; charset=utf-8')
      .send(shape(request.url, { ...known, requestId }));
  };
}

const CLIENT_ERRORS: Record<string, Omit<ErrorBody, 'requestId'>> = {
  HPE_HEADER_OVERFLOW: {
    statusCode: 431,
    code: ErrorCode.HeadersTooLarge,
    message: 'The request line (its URL) and headers together are larger than the server accepts (16 KB)',
  },
  ERR_HTTP_REQUEST_TIMEOUT: { statusCode: 408, code: ErrorCode.RequestTimeout, message: 'The request was not received in time' },
};

/** A response already under way (the gateway answering before an upload ended) is cut instead. */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  const answering = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (!socket.writable || answering || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const known = (error.code && CLIENT_ERRORS[error.code]) || {
    statusCode: 400,
    code: ErrorCode.BadRequest,
    message: 'The request is not valid HTTP/1.1',
  };
  const body = JSON.stringify({ ...known, requestId: randomUUID() });
  socket.end(
    `HTTP/1.1 ${known.statusCode} ${STATUS_CODES[known.statusCode]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

const JSON_TYPES = /^application\/(?:[\w.+-]+\+)?json(?:\s*;|$)/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

const bodyRefusal = (statusCode: 400 | 415, message: string) => Object.assign(new Error(message), { statusCode });

/** JSON is UTF-8 (RFC 8259): another charset, or a compressed body, is refused rather than misread. */
function bodyEncodingProblem(headers: Record<string, string | string[] | undefined>): Error | undefined {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(String(headers['content-type']))?.[1];
  if (charset !== undefined && !/^utf-?8$/i.test(charset))
    return bodyRefusal(415, `Content-Type charset must be utf-8, not ${JSON.stringify(charset.slice(0, 40))}`);
  const encoding = String(headers['content-encoding'] ?? 'identity').trim();
  if (!/^identity$/i.test(encoding))
    return bodyRefusal(415, `Content-Encoding ${JSON.stringify(encoding.slice(0, 40))} is not accepted: send the body uncompressed`);
  return undefined;
}

/** JSON only: form posts and text are not parsed into something validation then misreads. */
export function installJsonBodies(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(JSON_TYPES, { parseAs: 'buffer' }, (request, body, done) => {
    const refused = bodyEncodingProblem(request.headers);
    if (refused) return done(refused, undefined);
    let text: string;
    try {
      text = UTF8.decode(body as Buffer);
    } catch {
      return done(bodyRefusal(400, 'The request body must be JSON in UTF-8: it holds bytes that are not UTF-8'), undefined);
    }
    if (text.trim() === '') return done(null, undefined);
    return parseJson(request, text, (error, parsed) => {
      // secure-json-parse refuses prototype keys with the error of broken JSON: say which it was.
      if (error && /"__proto__"\s*:|"constructor"\s*:\s*\{[^}]*"prototype"/.test(text))
        return done(bodyRefusal(400, 'The request body must not contain __proto__ or constructor.prototype keys'), undefined);
      return done(error, parsed);
    });
  });
  fastify.addContentTypeParser('*', (request, _payload, done) => {
    const type = request.headers['content-type'];
    done(
      bodyRefusal(415, type ? 'Content-Type must be application/json' : 'A request body needs Content-Type: application/json'),
      undefined,
    );
  });
}
