/** Minimal OpenAPI 3 shapes the merge touches. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string; [k: string]: unknown };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, unknown>; [k: string]: unknown };
  [k: string]: unknown;
}

export interface OpenApiOperation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: { type?: string } }[];
  requestBody?: unknown;
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
  [k: string]: unknown;
}

export interface ServiceDocument {
  service: string;
  /** Only paths under these prefixes are public through the gateway. */
  prefixes: string[];
  document: OpenApiDocument;
}

/**
 * One document for the whole public API: the paths each service serves under its gateway
 * prefixes, and their schemas. Two services may name different schemas alike; the later
 * one is renamed `<service>.<Name>` and its references follow.
 */
export function mergeDocuments(parts: ServiceDocument[], info: OpenApiDocument['info']): OpenApiDocument {
  const merged: OpenApiDocument = { openapi: '3.0.0', info, tags: [], paths: {}, components: { schemas: {} } };
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
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      if (!part.prefixes.some((p) => path === p || path.startsWith(`${p}/`))) continue;
      merged.paths[path] = item;
    }
    for (const tag of doc.tags ?? []) tags.set(tag.name, tag);
  }
  merged.tags = [...tags.values()];
  merged.paths = Object.fromEntries(Object.entries(merged.paths).sort(([a], [b]) => a.localeCompare(b)));
  return merged;
}
