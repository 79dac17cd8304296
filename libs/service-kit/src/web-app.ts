import { ErrorCode, type ErrorBody } from '@swap/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { printableText } from './input-text';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** No referrer: portal invitation links carry tokens. */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

interface Asset {
  body: Buffer;
  type: string;
  immutable: boolean;
}

/** From a compiled service's directory, or from its sources under jest. */
export function webAppDir(serviceDir: string, name: string): string | undefined {
  return [join(serviceDir, '..', '..', '..', name), join(serviceDir, '..', '..', '..', 'dist', name)].find((dir) =>
    existsSync(join(dir, 'index.html')),
  );
}

function load(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const file = join(at, name);
      if (statSync(file).isDirectory()) walk(file);
      else
        assets.set(relative(dir, file).split(sep).join('/'), {
          body: readFileSync(file),
          type: TYPES[extname(name)] ?? 'application/octet-stream',
          immutable: file.includes(`${sep}assets${sep}`),
        });
    }
  };
  walk(dir);
  return assets;
}

function notFound(reply: FastifyReply, message: string): FastifyReply {
  const body: ErrorBody = {
    statusCode: 404,
    code: ErrorCode.RouteNotFound,
    message: printableText(message),
    requestId: String(reply.request.id),
  };
  return reply.code(404).type('application/json; charset=utf-8').send(body);
}

export interface WebAppOptions {
  prefix: string;
  /** Undefined when not built. */
  dir: string | undefined;
  label: string;
  /** A path under the prefix that belongs to an API, never to the app. */
  reserved?: string;
}

/** Read into memory at start: no path is ever joined from a request. */
export function serveWebApp(fastify: FastifyInstance, options: WebAppOptions): void {
  const { prefix, label, reserved } = options;
  const assets = options.dir ? load(options.dir) : new Map<string, Asset>();
  const send = (reply: FastifyReply, asset: Asset) =>
    reply
      .headers(SECURITY_HEADERS)
      .header('cache-control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
      .type(asset.type)
      .send(asset.body);
  fastify.get(prefix, (_req, reply) => reply.redirect(`${prefix}/`, 302));
  fastify.get(`${prefix}/*`, (req, reply) => {
    const path = (req.params as { '*': string })['*'];
    if (reserved && (path === reserved || path.startsWith(`${reserved}/`)))
      return notFound(reply, `No route for GET ${req.url.split('?')[0].slice(0, 100)}`);
    const index = assets.get('index.html');
    if (!index) return notFound(reply, `${label} is not built here (npm run build builds it)`);
    const asset = assets.get(path);
    if (asset) return send(reply, asset);
    if (path === '' || !extname(path)) return send(reply, index);
    return notFound(reply, `No file ${path.slice(0, 200)} in ${label}`);
  });
}
