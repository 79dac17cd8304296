import type { OpenApiDocument, OpenApiOperation } from './merge-documents';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function schemaName(schema: unknown): string {
  if (!schema || typeof schema !== 'object') return '';
  const s = schema as { $ref?: string; type?: string; items?: unknown; additionalProperties?: unknown };
  if (s.$ref) return s.$ref.split('/').pop() ?? '';
  if (s.type === 'array') return `${schemaName(s.items)}[]`;
  if (s.additionalProperties) return `{ [key]: ${schemaName(s.additionalProperties)} }`;
  return s.type ?? 'object';
}

function operationHtml(method: string, path: string, op: OpenApiOperation): string {
  const params = (op.parameters ?? [])
    .map((p) => `<li><code>${esc(p.name)}</code> (${esc(p.in)}${p.required ? ', required' : ''}${p.schema?.type ? `, ${esc(p.schema.type)}` : ''}) ${esc(p.description)}</li>`)
    .join('');
  const body = op.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined;
  const bodySchema = body?.content ? schemaName(Object.values(body.content)[0]?.schema) : '';
  const responses = Object.entries(op.responses ?? {})
    .map(([status, r]) => {
      const schema = r.content ? schemaName(Object.values(r.content)[0]?.schema) : '';
      return `<li><b>${esc(status)}</b> ${esc(r.description)}${schema ? ` → <code>${esc(schema)}</code>` : ''}</li>`;
    })
    .join('');
  return `<section class="op"><h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${esc(path)}</code></h3>
<p>${esc(op.summary)}${op.description ? `<br>${esc(op.description)}` : ''}</p>
${params ? `<h4>Parameters</h4><ul>${params}</ul>` : ''}${bodySchema ? `<h4>Body</h4><p><code>${esc(bodySchema)}</code></p>` : ''}
${responses ? `<h4>Responses</h4><ul>${responses}</ul>` : ''}</section>`;
}

/** A self-contained, readable page of the merged document: no scripts, no external assets. */
export function renderDocsPage(doc: OpenApiDocument): string {
  const sections: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (op) sections.push(operationHtml(method, path, op));
    }
  }
  const schemas = Object.entries(doc.components?.schemas ?? {})
    .map(([name, schema]) => `<details><summary><code>${esc(name)}</code></summary><pre>${esc(JSON.stringify(schema, null, 2))}</pre></details>`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(doc.info.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#1d2330}
code{background:#f3f4f7;padding:0 .25rem;border-radius:3px}.op{border-top:1px solid #e3e5ea;padding:.5rem 0}
.m{display:inline-block;min-width:4.5rem;text-align:center;border-radius:4px;color:#fff;font-size:.8rem;padding:.1rem .4rem}
.get{background:#2f7d32}.post{background:#1f5fa8}.put,.patch{background:#a86b1f}.delete{background:#a8321f}
h3{margin:.4rem 0;font-size:1rem}h4{margin:.4rem 0 .2rem;font-size:.85rem;color:#5b6270}pre{font-size:.8rem;overflow:auto}</style></head>
<body><h1>${esc(doc.info.title)}</h1><p>${esc(doc.info.description)}</p>
<p>Machine-readable: <a href="/v1/openapi.json"><code>/v1/openapi.json</code></a> (OpenAPI ${esc(doc.openapi)}).</p>
<h2>Routes</h2>${sections.join('\n') || '<p>No service has published its routes yet.</p>'}
<h2>Schemas</h2>${schemas}</body></html>`;
}
