import fc from 'fast-check';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPlatform, type Platform } from '../../../tools/embedded/src/platform';
import { nastyText, valueFor } from './openapi-arbitraries';
import { OpenApiContract, parseBody } from './openapi-contract';
import { Browser } from './portal-browser';

jest.setTimeout(300_000);

/* eslint-disable @typescript-eslint/no-explicit-any */

/** How many requests, from which seed (FUZZ_REQUESTS and FUZZ_SEED reproduce a run). */
const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const CONCURRENCY = 8;

/** A 5xx that names a dependency honestly reported down (the devnet has no relay for every case, no solver for every pair). */
const UNAVAILABLE_CODES = new Set([
  'NOT_CONFIGURED',
  'CHAIN_UNAVAILABLE',
  'DEPENDENCY_UNAVAILABLE',
  'DEPENDENCY_TIMEOUT',
  'KEY_VERIFICATION_UNAVAILABLE',
  'RELAY_UNAVAILABLE',
  'NO_SOLVER_AVAILABLE',
]);

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Text as it may stand in a URL: percent-encoded, a lone surrogate as its raw bytes' escape. */
function urlText(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

/** Header values a client can send (printable ASCII; anything else the client library refuses itself). */
const headerText = nastyText.map((t) => t.replace(/[^\x20-\x7e]/g, '').slice(0, 200));

/**
 * Ten thousand seeded requests through the gateway of `npm start`'s platform (devnet),
 * generated from the OpenAPI document: every route, with bodies, path and query values
 * drawn from its schemas (examples and boundary values, fields missing, extra and of the
 * wrong type), raw bodies that are not JSON or not an object, odd content types, keys and
 * repeated parameters. Every answer must be documented and in the error shape of its
 * route; none may be a 500 or a 502, and a 503/504 must name the dependency that is down.
 */
describe(`fuzzing the public API through the gateway (${TOTAL} requests, seed ${SEED})`, () => {
  let platform: Platform;
  let dataDir: string;
  let contract: OpenApiContract;
  let session: { cookie: string; csrf: string; orgId: string };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'fuzz-e2e-'));
    platform = await startPlatform({
      dataDir,
      gatewayPort: 0,
      servicePorts: 'ephemeral',
      logLevel: 'silent',
      devnet: true,
      env: { SCRYPT_LOG_N: '10', SUBMIT_LIMIT_PER_CLIENT: '100000' },
    });
    const doc = await (await fetch(`${platform.gatewayUrl}/v1/openapi.json`)).json();
    contract = new OpenApiContract(doc as any, (status, body) => (status === 503 || status === 504) && UNAVAILABLE_CODES.has(body?.code));
    session = await portalSession(platform.gatewayUrl);
  });

  afterAll(async () => {
    await platform?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('answers every request in the document’s shapes, with no 500, no 502 and no crash', async () => {
    const operations = contract.all.map((entry) => {
      const [method, template] = entry.split(' ');
      return { method, template, op: contract.doc.paths[template][method.toLowerCase()] };
    });
    const perOperation = Math.ceil(TOTAL / operations.length);
    const requests: FuzzRequest[] = [];
    operations.forEach(({ method, template, op }, i) => {
      requests.push(...fc.sample(requestFor(method, template, op, contract.doc, session), { numRuns: perOperation, seed: SEED + i }));
    });

    const statuses = new Map<number, number>();
    const failures: string[] = [];
    for (let i = 0; i < requests.length; i += CONCURRENCY) {
      await Promise.all(
        requests.slice(i, i + CONCURRENCY).map(async (r) => {
          let res: Response;
          try {
            res = await fetch(`${platform.gatewayUrl}${r.path}`, {
              method: r.method,
              headers: r.headers,
              body: r.body,
              redirect: 'manual',
              signal: AbortSignal.timeout(15_000),
            });
          } catch (error) {
            failures.push(`${r.method} ${r.path}: no answer (${(error as Error).message})`);
            return;
          }
          const text = await res.text();
          const body = parseBody(text);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status === 500 || res.status === 502)
            failures.push(
              `${r.method} ${r.path} ${JSON.stringify(r.headers)} ${(r.body ?? '').slice(0, 600)} → ${res.status} ${text.slice(0, 200)}`,
            );
          contract.check({ method: r.method, path: r.path, status: res.status, body, headers: res.headers });
        }),
      );
    }
    const counts = Object.fromEntries([...statuses].sort(([a], [b]) => a - b));
    process.stdout.write(
      `fuzz: ${requests.length} requests over ${operations.length} routes, seed ${SEED}; statuses ${JSON.stringify(counts)}\n`,
    );
    expect(requests.length).toBeGreaterThanOrEqual(TOTAL);
    expect(failures).toEqual([]);
    expect(contract.violations.slice(0, 30)).toEqual([]);
    expect(statuses.get(500) ?? 0).toBe(0);
    // Still whole afterwards: every service ready on its admin port.
    for (const service of platform.services)
      expect({ service: service.name, status: (await fetch(`${service.adminUrl}/readyz`)).status }).toEqual({
        service: service.name,
        status: 200,
      });
  });
});

function requestFor(
  method: string,
  template: string,
  op: any,
  doc: any,
  session: { cookie: string; csrf: string; orgId: string },
): fc.Arbitrary<FuzzRequest> {
  const params: any[] = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const known: Record<string, string> = { chainKey: '0xa4b1.arbitrum', orgId: session.orgId };
  const pathValue = (name: string) =>
    fc.oneof({ weight: 2, arbitrary: fc.constant(known[name] ?? 'x') }, { weight: 3, arbitrary: nastyText.map((t) => t || 'x') });
  const path = fc.tuple(...pathParams.map((p) => pathValue(p.name))).map((values) => {
    let out = template;
    pathParams.forEach((p, i) => (out = out.replace(`{${p.name}}`, urlText(values[i]).slice(0, 300) || 'x')));
    return out;
  });
  const query = fc
    .tuple(
      fc.tuple(...queryParams.map((p) => fc.option(valueFor(p.schema, doc), { nil: undefined, freq: 4 }))),
      fc.array(fc.tuple(headerText, nastyText), { maxLength: 2 }),
      fc.boolean(),
    )
    .map(([values, extra, repeat]) => {
      const pairs: [string, unknown][] = [];
      queryParams.forEach((p, i) => values[i] !== undefined && pairs.push([p.name, values[i]]));
      for (const [k, v] of extra) if (k) pairs.push([k, v]);
      if (repeat && pairs.length) pairs.push(pairs[0]);
      return pairs.length ? `?${pairs.map(([k, v]) => `${urlText(k)}=${urlText(v)}`).join('&')}` : '';
    });
  const schema = op.requestBody?.content?.['application/json']?.schema;
  const body: fc.Arbitrary<{ text?: string; type?: string }> = schema
    ? fc.oneof(
        { weight: 8, arbitrary: valueFor(schema, doc).map((v) => ({ text: JSON.stringify(v) ?? 'null', type: 'application/json' })) },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom('{', '', 'null', '[]', '"x"', '{"__proto__":{"admin":true}}', `${'['.repeat(5_000)}`, '{"a":1,"a":2}')
            .map((text) => ({ text, type: 'application/json' })),
        },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', '')
            .map((type) => ({ text: 'a=b', type: type || undefined })),
        },
      )
    : fc.oneof(
        { weight: 9, arbitrary: fc.constant({}) },
        { weight: 1, arbitrary: fc.constant({ text: '{"x":1}', type: 'application/json' }) },
      );
  const headers = fc.record(
    {
      key: fc.option(fc.oneof(fc.constant('svc_'), headerText), { nil: undefined, freq: 3 }),
      requestId: fc.option(headerText, { nil: undefined, freq: 3 }),
      signedIn: fc.boolean(),
    },
    { requiredKeys: ['signedIn'] },
  );
  return fc.tuple(path, query, body, headers).map(([p, q, b, h]) => {
    const out: Record<string, string> = {};
    if (b.type) out['content-type'] = b.type;
    if (h.key !== undefined) out['x-api-key'] = h.key;
    if (h.requestId !== undefined) out['x-request-id'] = h.requestId;
    if (h.signedIn && template.startsWith('/portal/')) {
      out.cookie = session.cookie;
      out['x-csrf-token'] = session.csrf;
    }
    // A GET carries no body (fetch refuses one).
    const text = method === 'GET' ? undefined : b.text;
    return { method, path: `${p}${q}`, headers: out, body: text };
  });
}

/** A signed-in partner with an organisation, so portal routes are fuzzed past the session check. */
async function portalSession(gateway: string): Promise<{ cookie: string; csrf: string; orgId: string }> {
  const partner = new Browser(() => gateway);
  await partner.signUp('fuzz@example.com');
  const org = await partner.call('POST', '/portal/api/orgs', { name: 'Fuzz Co' });
  return { cookie: partner.cookieHeader(), csrf: partner.cookies.get('portal_csrf')!, orgId: org.body.id };
}
