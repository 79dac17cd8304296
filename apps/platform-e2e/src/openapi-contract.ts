import Ajv, { type ValidateFunction } from 'ajv';
import type { Middleware } from 'openapi-fetch';
import addFormats from 'ajv-formats';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Doc = { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, unknown> } };

export interface Exchange {
  method: string;
  path: string;
  status: number;
  body: any;
  headers: Headers;
}

/**
 * The merged OpenAPI document as a contract: every answer a test receives through the
 * gateway is checked against the operation it reached (the response of its status, else
 * `default`), and which operations were seen answering well (2xx) and badly (4xx) is kept,
 * so a test can require every documented route to have been walked both ways.
 */
export class OpenApiContract {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly operations: { method: string; template: string; pattern: RegExp; op: any }[] = [];
  private readonly validators = new Map<string, ValidateFunction>();
  readonly good = new Set<string>();
  readonly bad = new Set<string>();
  readonly violations: string[] = [];

  /**
   * @param unavailable which 5xx answers are a dependency honestly reported down (a 503
   * naming it); none by default: any 5xx is a violation.
   */
  constructor(
    readonly doc: Doc,
    private readonly unavailable: (status: number, body: any) => boolean = () => false,
  ) {
    addFormats(this.ajv);
    this.ajv.addSchema(closed({ components: doc.components }) as object, 'doc');
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
        this.operations.push({ method: method.toUpperCase(), template, pattern, op });
      }
    }
    // Literal paths before templated ones (`/intents/status` before `/intents/{txHash}`).
    this.operations.sort((a, b) => Number(a.template.includes('{')) - Number(b.template.includes('{')));
  }

  /** Every documented operation, as `METHOD /template`. */
  get all(): string[] {
    return this.operations.map((o) => `${o.method} ${o.template}`);
  }

  /** Checks one answer against the document; returns the operation it reached. */
  check(exchange: Exchange): string {
    const pathOnly = exchange.path.split('?')[0];
    const found = this.operations.find((o) => o.method === exchange.method && o.pattern.test(pathOnly));
    const where = `${exchange.method} ${exchange.path} → ${exchange.status}`;
    if (!found) {
      this.violations.push(`${where}: no documented operation`);
      return '';
    }
    const key = `${found.method} ${found.template}`;
    if (exchange.status >= 200 && exchange.status < 300) this.good.add(key);
    else if (exchange.status >= 400 && exchange.status < 500) this.bad.add(key);
    if (exchange.status >= 500 && !this.unavailable(exchange.status, exchange.body))
      this.violations.push(`${where}: a 5xx (${JSON.stringify(exchange.body)})`);
    const responses = found.op.responses ?? {};
    const response = responses[String(exchange.status)] ?? (exchange.status >= 400 ? responses.default : undefined);
    if (!response) {
      this.violations.push(`${where}: status not documented for ${key}`);
      return key;
    }
    // An event stream (the status stream): its text is the format's, not JSON; its type is checked.
    if (response.content?.['text/event-stream']) {
      if (!(exchange.headers.get('content-type') ?? '').startsWith('text/event-stream'))
        this.violations.push(`${where}: content-type ${exchange.headers.get('content-type')}, not text/event-stream`);
      return key;
    }
    const schema = response.content?.['application/json']?.schema;
    if (!schema) {
      if (exchange.body !== undefined && exchange.body !== '') this.violations.push(`${where}: a body where the document declares none`);
      return key;
    }
    if (!(exchange.headers.get('content-type') ?? '').startsWith('application/json'))
      this.violations.push(`${where}: content-type ${exchange.headers.get('content-type')}`);
    const id = `${key} ${exchange.status}`;
    let validate = this.validators.get(id);
    if (!validate) {
      validate = this.ajv.compile(closed(rebase(schema)) as object);
      this.validators.set(id, validate);
    }
    if (!validate(exchange.body)) {
      this.violations.push(
        `${where}: ${this.ajv.errorsText(validate.errors, { dataVar: 'body' })} in ${JSON.stringify(exchange.body).slice(0, 300)}`,
      );
    }
    return key;
  }
}

/** References into `#/components/schemas` made absolute against the registered document. */
function rebase(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"doc#/components/'));
}

/**
 * Objects that list their properties take no others: an answer carrying a field the
 * document does not describe is a violation too (the document is the whole contract).
 */
function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node))
    out[k] =
      k === 'properties' || k === 'example'
        ? k === 'properties'
          ? Object.fromEntries(Object.entries(v as object).map(([p, s]) => [p, closed(s)]))
          : v
        : closed(v);
  if ('properties' in out && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}

/** openapi-fetch middleware that checks every answer the typed client receives against the contract. */
export function contractMiddleware(contract: OpenApiContract): Middleware {
  return {
    async onResponse({ request, response }) {
      const url = new URL(request.url);
      const body = parseBody(await response.clone().text());
      contract.check({
        method: request.method,
        path: `${url.pathname}${url.search}`,
        status: response.status,
        body,
        headers: response.headers,
      });
      return response;
    },
  };
}

/** An answer's body as JSON, or its text where it is not JSON (the contract reports that where JSON is documented). */
export function parseBody(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}
