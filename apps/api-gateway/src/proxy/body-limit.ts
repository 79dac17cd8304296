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

/** Bodies read whole and bounded before the upstream is asked; see docs/operators/gateway.md#slow-clients. */
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
        // Not read further: the connection closes after the refusal.
        payload.pause();
        return done(error);
      }
      const body = Buffer.concat(chunks, seen);
      chunks = [];
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

/** A stream, as reply-from would re-encode a Buffer as JSON; the pool sends `bytes` instead. */
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

export class BodiesBusyError extends AppError {
  constructor() {
    super(429, ErrorCode.TooManyRequests, 'The gateway is receiving too many request bodies at once; retry shortly');
  }
}

/** 413 before the upload, rather than Node's "100 Continue" and a refusal after it. */
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
