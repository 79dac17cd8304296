import { Transform, pipeline, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { resolveRequestId } from '@swap/observability';

export class PayloadTooLargeError extends Error {
  readonly statusCode = 413;
  readonly code = 'FST_ERR_CTP_BODY_TOO_LARGE';
  constructor(limit: number) {
    super(`Request body exceeds the limit of ${limit} bytes`);
  }
}

/**
 * Request bodies cross the gateway as the raw byte stream (never parsed and re-encoded,
 * so they reach the service unchanged), counted on the way: a declared length over the
 * limit is refused at once, a chunked body is cut off when it passes the limit.
 */
export function installStreamingBodyLimit(fastify: FastifyInstance, limit: number): void {
  // Whatever the method: a GET declaring a body over the limit is refused too, not read.
  fastify.addHook('onRequest', (request, _reply, done) => {
    done(Number(request.headers['content-length']) > limit ? new PayloadTooLargeError(limit) : undefined);
  });
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (request: FastifyRequest, payload: Readable, done: (err: Error | null, body?: unknown) => void) => {
    const declared = request.headers['content-length'];
    if (declared !== undefined) {
      if (Number(declared) > limit) return done(new PayloadTooLargeError(limit));
      return done(null, payload);
    }
    let seen = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        seen += chunk.length;
        if (seen > limit) callback(new PayloadTooLargeError(limit));
        else callback(null, chunk);
      },
    });
    done(
      null,
      pipeline(payload, counter, () => undefined),
    );
  });
}

/**
 * `Expect: 100-continue` with a declared length over the limit is answered 413 at once,
 * before the client sends the body (Node would otherwise say "100 Continue" first and the
 * refusal would come after the whole upload); any other expectation continues as usual.
 */
export function refuseOversizedExpectations(server: Server, limit: number, body: (url: string, requestId: string) => unknown): void {
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (Number(req.headers['content-length']) > limit) {
      const requestId = resolveRequestId(req.headers['x-request-id']);
      const text = JSON.stringify(body(req.url ?? '/', requestId));
      res
        .writeHead(413, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(text),
          'x-request-id': requestId,
          connection: 'close',
        })
        .end(text);
      return;
    }
    res.writeContinue();
    server.emit('request', req, res);
  });
}
