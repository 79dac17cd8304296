import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const SWAGGER_UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));

/**
 * `/v1/docs`: Swagger UI (swagger-ui-dist, served from this process: it works offline) over
 * the merged `/v1/openapi.json`. Tags appear in the document's order (the steps of a
 * swap), schemas expanded, "Try it out" on against the platform that serves the page.
 * No inline script: the initializer is a file of its own, so the page keeps a strict CSP.
 */
const ASSETS: Record<string, { file?: string; body?: string; type: string }> = {
  'swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
  'favicon-32x32.png': { file: 'favicon-32x32.png', type: 'image/png' },
  'docs.js': {
    type: 'text/javascript; charset=utf-8',
    body: `window.ui = SwaggerUIBundle({
  url: '/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 1,
  defaultModelExpandDepth: 4,
  defaultModelRendering: 'model',
  displayRequestDuration: true,
  tryItOutEnabled: true,
  showExtensions: true,
  showCommonExtensions: true,
  filter: true,
  // No call to validator.swagger.io: the page reaches nothing beyond the platform.
  validatorUrl: null,
});
`,
  },
};

const loaded = new Map<string, Buffer>();

/** One of the page's assets, or undefined for any other name (no path is ever joined from input). */
export function docsAsset(name: string): { body: Buffer; type: string } | undefined {
  const asset = Object.prototype.hasOwnProperty.call(ASSETS, name) ? ASSETS[name] : undefined;
  if (!asset) return undefined;
  let body = loaded.get(name);
  if (!body) {
    body = asset.body !== undefined ? Buffer.from(asset.body) : readFileSync(join(SWAGGER_UI_DIR, asset.file!));
    loaded.set(name, body);
  }
  return { body, type: asset.type };
}

export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Cross-network swap platform API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" type="image/png" href="/v1/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/v1/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<noscript>This page needs JavaScript; the document itself is at <a href="/v1/openapi.json">/v1/openapi.json</a>.</noscript>
<script src="/v1/docs/assets/swagger-ui-bundle.js"></script>
<script src="/v1/docs/assets/docs.js"></script>
</body>
</html>
`;

/** Scripts and styles from this origin only; Swagger UI sets inline styles and shows data: images. */
/** Headers of the page and its assets (as the portal's): no sniffing, no referrer, no framing. */
export const DOCS_HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY' } as const;

export const DOCS_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";
