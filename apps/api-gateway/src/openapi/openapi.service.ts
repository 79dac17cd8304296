import { Inject, Injectable } from '@nestjs/common';
import { API_TAGS, type ServiceName } from '@swap/contracts';
import type { Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';
import { ApiGatewayConfig } from '../api-gateway.config';
import { ROUTES, solverErrorsOn, upstreamsOf } from '../proxy/routes';
import { mergeDocuments, type OpenApiDocument, type ServiceDocument } from './merge-documents';

const CACHE_MS = 30_000;

const DESCRIPTION = [
  'Quote token swaps across networks, build the unsigned transactions your users sign in their own wallets, submit what they broadcast and poll it until solvers fill it; USD price candles.',
  '',
  'A swap in five steps: **1** list tokens and quote; **2** get a deadline, check the allowance (approve if needed) and build the intent transaction; the user signs and broadcasts it; **3** submit its hash; **4** poll the status every ~3 s until `solved` or `failed`; **5** cancel if it failed and was not refunded.',
  '',
  'Errors: `{ statusCode, code, message, requestId, details? }` (the solver API: `{ detail: { code, message } }`). Keys: `x-api-key` on the POST swap routes (checked in the deployment’s mode) and on sponsorship routes. The API’s routes carry the `/v1/` prefix; the partner portal’s, `/portal/api`.',
  '',
  'Partner portal (`/portal/api`): the `portal_session` cookie that sign-up and sign-in set; every portal mutation, sign-up and sign-in included, also sends `x-csrf-token` equal to the `portal_csrf` cookie (`GET /portal/api/auth/csrf`), else `403 CSRF_REJECTED`.',
].join('\n');
// package.json's `UNLICENSED` (there is no LICENSE file): no licence is granted; the link is npm's meaning of the word.
const LICENSE = { name: 'UNLICENSED: no licence is granted', url: 'https://docs.npmjs.com/cli/v11/configuring-npm/package-json#license' };
// Relative: the platform that serves this document (`npm start`: http://localhost:3000), so the docs page tries calls against it.
const SERVERS = [{ url: '/', description: 'The gateway that serves this document' }];
const FETCH_TIMEOUT_MS = 2_000;

/** Collects each upstream's `/openapi.json` and serves them as one document, cached briefly. */
@Injectable()
export class OpenApiService {
  private cached?: { at: number; doc: OpenApiDocument };
  private inFlight?: Promise<OpenApiDocument>;

  constructor(
    private readonly config: ApiGatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  document(): Promise<OpenApiDocument> {
    if (this.cached && Date.now() - this.cached.at < CACHE_MS) return Promise.resolve(this.cached.doc);
    this.inFlight ??= this.build().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async build(): Promise<OpenApiDocument> {
    const byService = new Map<ServiceName, string[]>();
    for (const r of ROUTES) byService.set(r.service, [...(byService.get(r.service) ?? []), r.prefix]);
    const fetched = await Promise.all(
      [...byService].map(async ([service, prefixes]): Promise<ServiceDocument | undefined> => {
        // Replicas serve the same document: the first that answers gives it.
        for (const url of upstreamsOf(service, this.config)) {
          try {
            const res = await fetch(`${url}/openapi.json`, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
            if (!res.ok) throw new Error(`status ${res.status}`);
            return { service, prefixes, document: (await res.json()) as OpenApiDocument };
          } catch (error) {
            this.logger.warn({ service, err: error }, 'OpenAPI document of an upstream is unavailable');
          }
        }
        return undefined;
      }),
    );
    const parts = fetched.filter((p): p is ServiceDocument => p !== undefined);
    const doc = mergeDocuments(parts, {
      info: { title: 'Cross-network swap platform API', version: '1', description: DESCRIPTION, license: LICENSE },
      servers: SERVERS,
      tags: API_TAGS,
      errorSchemaFor: (path) => (solverErrorsOn(path) ? 'SolverErrorBodyDto' : 'ErrorBodyDto'),
    });
    // A partial document (an upstream down) is served but not cached, so it heals on the next call.
    if (parts.length === byService.size) this.cached = { at: Date.now(), doc };
    else doc.info['x-partial'] = true;
    return doc;
  }
}
