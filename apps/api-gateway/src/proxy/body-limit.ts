import { Transform, pipeline, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';

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
    done(null, pipeline(payload, counter, () => undefined));
  });
}
