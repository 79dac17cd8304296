import { Readable } from 'node:stream';
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
 * Request bodies cross the gateway as the raw bytes (never parsed and re-encoded, so they
 * reach the service unchanged), read whole before the upstream is asked: a client trickling
 * its body holds only its own connection to the gateway, never one of the upstream pool's
 * (a few clients doing so once stalled a whole prefix until their 408). The bytes are
 * counted on the way: a declared length over the limit is refused at once, a chunked body
 * as soon as it passes the limit.
 */
export function installStreamingBodyLimit(fastify: FastifyInstance, limit: number): void {
  // Whatever the method: a GET declaring a body over the limit is refused too, not read.
  fastify.addHook('onRequest', (request, _reply, done) => {
    done(Number(request.headers['content-length']) > limit ? new PayloadTooLargeError(limit) : undefined);
  });
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (request: FastifyRequest, payload: Readable, done: (err: Error | null, body?: unknown) => void) => {
    if (Number(request.headers['content-length']) > limit) return done(new PayloadTooLargeError(limit));
    const chunks: Buffer[] = [];
    let seen = 0;
    let settled = false;
    const settle = (error: Error | null, body?: Readable) => {
      if (settled) return;
      settled = true;
      payload.off('data', onData);
      done(error, body);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      // Refused as soon as it passes the limit; the rest is not read (the connection closes after the 413).
      if (seen > limit) return settle(new PayloadTooLargeError(limit));
      chunks.push(chunk);
    };
    payload.on('data', onData);
    // Handed on as a stream of the bytes already here: @fastify/reply-from passes a stream through as it is.
    payload.once('end', () => settle(null, Readable.from([Buffer.concat(chunks, seen)], { objectMode: false })));
    payload.once('error', (error: Error) => settle(error));
    payload.once('close', () => settle(new Error('the client went away before its body ended')));
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
