import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { AppError, ErrorCode } from '@swap/contracts';
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
 * as soon as it passes the limit. The bytes of all bodies still arriving are bounded too
 * (`receivingLimit`): past it a body is refused with 429 rather than held, so slow uploads
 * from many addresses cannot fill the gateway's memory.
 */
export function installStreamingBodyLimit(fastify: FastifyInstance, limit: number, receivingLimit: number): void {
  let receiving = 0;
  // Whatever the method: a GET declaring a body over the limit is refused too, not read.
  fastify.addHook('onRequest', (request, _reply, done) => {
    done(Number(request.headers['content-length']) > limit ? new PayloadTooLargeError(limit) : undefined);
  });
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (request: FastifyRequest, payload: Readable, done: (err: Error | null, body?: unknown) => void) => {
    if (Number(request.headers['content-length']) > limit) return done(new PayloadTooLargeError(limit));
    let chunks: Buffer[] = [];
    let seen = 0;
    let settled = false;
    const settle = (error: Error | null) => {
      if (settled) return;
      settled = true;
      receiving -= seen;
      payload.off('data', onData).off('end', onEnd).off('error', settle).off('close', onClose);
      if (error) {
        chunks = [];
        // What is still coming is not read: the connection closes after the refusal.
        payload.pause();
        return done(error);
      }
      const body = Buffer.concat(chunks, seen);
      chunks = [];
      // Handed on as a stream of the bytes already here: @fastify/reply-from passes a stream through
      // as it is (the upstream pool sends its bytes in one write: BufferedBody).
      done(null, new BufferedBody(body));
    };
    const onData = (chunk: Buffer) => {
      if (seen + chunk.length > limit) return settle(new PayloadTooLargeError(limit));
      if (receiving + chunk.length > receivingLimit) return settle(new BodiesBusyError());
      seen += chunk.length;
      receiving += chunk.length;
      chunks.push(chunk);
    };
    const onEnd = () => settle(null);
    const onClose = () => settle(new Error('the client went away before its body ended'));
    payload.on('data', onData).once('end', onEnd).once('error', settle).once('close', onClose);
  });
}

/**
 * A request body read whole, as the stream @fastify/reply-from passes through untouched
 * (a Buffer there would be re-encoded as JSON). The upstream pool hands `bytes` to undici
 * instead of the stream, so headers and body go out in one write, with no stream to pump.
 */
export class BufferedBody extends Readable {
  constructor(readonly bytes: Buffer) {
    super();
    this.push(bytes);
    this.push(null);
  }
  override _read(): void {
    // everything was pushed at once
  }
}

/** Refused while the bodies already arriving hold the gateway's whole allowance for them. */
export class BodiesBusyError extends AppError {
  constructor() {
    super(429, ErrorCode.TooManyRequests, 'The gateway is receiving too many request bodies at once; retry shortly');
  }
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
