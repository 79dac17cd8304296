/** Minimal OpenAPI 3 shapes the merge touches. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string; license?: { name: string; url?: string }; [k: string]: unknown };
  servers?: { url: string; description?: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown>; [k: string]: unknown };
  [k: string]: unknown;
}

export interface OpenApiOperation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: { type?: string } }[];
  requestBody?: unknown;
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
  security?: Record<string, string[]>[];
  [k: string]: unknown;
}

export interface ServiceDocument {
  service: string;
  /** Only paths under these prefixes are public through the gateway. */
  prefixes: string[];
  document: OpenApiDocument;
}

export interface MergeOptions {
  info: OpenApiDocument['info'];
  servers: NonNullable<OpenApiDocument['servers']>;
  /** Tags in the order the document lists them (the steps of a swap first), with their descriptions. */
  tags: readonly { name: string; description: string }[];
  /** The schema of an error body on a path (`{ detail: { code, message } }` on the solver API, the platform's shape elsewhere). */
  errorSchemaFor(path: string): string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** One document for the whole public API, each operation under the rules they share: docs/integrators/typed-client.md. */
export function mergeDocuments(parts: ServiceDocument[], options: MergeOptions): OpenApiDocument {
  const merged: OpenApiDocument = {
    openapi: '3.0.0',
    info: options.info,
    servers: options.servers,
    tags: [],
    paths: {},
    components: { schemas: {}, securitySchemes: {} },
  };
  const schemas = merged.components!.schemas!;
  const tags = new Map<string, { name: string; description?: string }>();
  for (const part of parts) {
    let doc = part.document;
    const renames: [string, string][] = [];
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
      if (name in schemas && JSON.stringify(schemas[name]) !== JSON.stringify(schema)) renames.push([name, `${part.service}.${name}`]);
    }
    if (renames.length) {
      let text = JSON.stringify(doc);
      for (const [from, to] of renames) text = text.split(`"#/components/schemas/${from}"`).join(`"#/components/schemas/${to}"`);
      doc = JSON.parse(text) as OpenApiDocument;
      for (const [from, to] of renames) {
        doc.components!.schemas![to] = doc.components!.schemas![from];
        delete doc.components!.schemas![from];
      }
    }
    Object.assign(schemas, doc.components?.schemas ?? {});
    Object.assign(merged.components!.securitySchemes!, doc.components?.securitySchemes ?? {});
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      if (!part.prefixes.some((p) => path === p || path.startsWith(`${p}/`))) continue;
      merged.paths[path] = item;
    }
    for (const tag of doc.tags ?? []) tags.set(tag.name, tag);
  }
  for (const [path, item] of Object.entries(merged.paths)) {
    for (const method of METHODS) {
      if (!item[method]) continue;
      withErrorResponses(item[method], options.errorSchemaFor(path));
      // Services declare the security of every route that checks a credential (KeyedRoute's
      // x-api-key, the portal's session cookie): a route without one takes none.
      item[method].security ??= [];
    }
  }
  merged.tags = orderTags(merged, options.tags);
  merged.paths = orderPaths(
    merged.paths,
    merged.tags.map((t) => t.name),
  );
  merged.components!.schemas = referencedSchemas(merged);
  nullableReferences(merged);
  if (!Object.keys(merged.components!.securitySchemes!).length) delete merged.components!.securitySchemes;
  return merged;
}

function withErrorResponses(op: OpenApiOperation, errorSchema: string): void {
  const error = (description: string) => ({
    description,
    content: { 'application/json': { schema: { $ref: `#/components/schemas/${errorSchema}` } } },
  });
  op.responses ??= {};
  const takesInput = Boolean(op.requestBody) || (op.parameters ?? []).some((p) => p.in !== 'header');
  if (takesInput && !op.responses['400']) op.responses['400'] = error('A field or parameter that breaks a rule, named with the rule');
  // The gateway's bounds hold on every route it proxies: a client's requests in flight, the bodies it is receiving.
  op.responses['429'] ??= error(
    'Too many requests at once (from this client, or bodies the gateway is receiving); retry after Retry-After',
  );
  op.responses.default ??= error(
    'Any other error, in the error shape (404 unknown, 413 body too large, 415 not JSON, 502/503/504 a dependency)',
  );
}

function orderTags(doc: OpenApiDocument, known: MergeOptions['tags']): { name: string; description?: string }[] {
  const used = new Set<string>();
  for (const item of Object.values(doc.paths)) for (const method of METHODS) for (const tag of item[method]?.tags ?? []) used.add(tag);
  const ordered: { name: string; description?: string }[] = known.filter((t) => used.has(t.name));
  for (const name of used) if (!known.some((t) => t.name === name)) ordered.push({ name });
  return ordered;
}

/** Paths grouped by their first tag in tag order; within a tag, as their service declared them. */
function orderPaths(paths: OpenApiDocument['paths'], tagOrder: string[]): OpenApiDocument['paths'] {
  const rank = (item: Record<string, OpenApiOperation>) => {
    const ranks = METHODS.map((m) => item[m]?.tags?.[0])
      .filter((t): t is string => Boolean(t))
      .map((t) => tagOrder.indexOf(t));
    return ranks.length ? Math.min(...ranks) : tagOrder.length;
  };
  const entries = Object.entries(paths).map((entry, index) => ({ entry, index, rank: rank(entry[1]) }));
  entries.sort((a, b) => a.rank - b.rank || a.index - b.index);
  return Object.fromEntries(entries.map((e) => e.entry));
}

/** The schemas reachable from the paths, following references between schemas. */
function referencedSchemas(doc: OpenApiDocument): Record<string, unknown> {
  const all = doc.components?.schemas ?? {};
  const kept: Record<string, unknown> = {};
  const pending = [...refsIn(doc.paths)];
  while (pending.length) {
    const name = pending.pop()!;
    if (name in kept || !(name in all)) continue;
    kept[name] = all[name];
    pending.push(...refsIn(all[name]));
  }
  return Object.fromEntries(
    Object.keys(all)
      .filter((name) => name in kept)
      .map((name) => [name, kept[name]]),
  );
}

function refsIn(value: unknown): string[] {
  const text = JSON.stringify(value ?? null);
  return [...text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
}

/**
 * `{ nullable: true, allOf: [{ $ref }] }`, as Nest writes a nullable object, still refuses
 * null under OpenAPI 3.0.3 (`nullable` only widens `type`; the `allOf` is checked on its
 * own): such a schema becomes "the reference, or null", which validators and generators read.
 */
function nullableReferences(node: unknown): void {
  if (Array.isArray(node)) {
    for (const child of node) nullableReferences(child);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  const allOf = schema.allOf as unknown[] | undefined;
  if (schema.nullable === true && Array.isArray(allOf) && allOf.length === 1) {
    schema.anyOf = [allOf[0], { type: 'object', nullable: true, enum: [null] }];
    delete schema.allOf;
    delete schema.nullable;
    delete schema.type;
  }
  for (const child of Object.values(schema)) nullableReferences(child);
}
