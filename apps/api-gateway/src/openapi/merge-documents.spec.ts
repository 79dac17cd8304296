import { mergeDocuments, type OpenApiDocument } from './merge-documents';
import { renderDocsPage } from './render-docs';

const doc = (paths: OpenApiDocument['paths'], schemas: Record<string, unknown> = {}): OpenApiDocument => ({
  openapi: '3.0.0',
  info: { title: 't', version: '1' },
  paths,
  components: { schemas },
});

describe('mergeDocuments', () => {
  it('keeps only the paths a service serves under its gateway prefixes', () => {
    const merged = mergeDocuments(
      [{ service: 'swap-gateway', prefixes: ['/v1/swaps'], document: doc({ '/v1/swaps/tokens': { get: {} }, '/internal/debug': { get: {} } }) }],
      { title: 'API', version: '1' },
    );
    expect(Object.keys(merged.paths)).toEqual(['/v1/swaps/tokens']);
  });

  it('renames a clashing schema of a later service and rewrites its references', () => {
    const a = doc({ '/v1/swaps/x': { get: { responses: { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } } } } } }, { Item: { type: 'string' } });
    const b = doc({ '/v1/be/y': { get: { responses: { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } } } } } }, { Item: { type: 'number' } });
    const merged = mergeDocuments(
      [
        { service: 'swap-gateway', prefixes: ['/v1/swaps'], document: a },
        { service: 'oracle-candles', prefixes: ['/v1/be'], document: b },
      ],
      { title: 'API', version: '1' },
    );
    expect(merged.components!.schemas).toEqual({ Item: { type: 'string' }, 'oracle-candles.Item': { type: 'number' } });
    expect(JSON.stringify(merged.paths['/v1/be/y'])).toContain('#/components/schemas/oracle-candles.Item');
    expect(JSON.stringify(merged.paths['/v1/swaps/x'])).toContain('#/components/schemas/Item"');
  });
});

describe('renderDocsPage', () => {
  it('lists every operation and escapes text from the documents', () => {
    const html = renderDocsPage(doc({ '/v1/swaps/tokens/{chainKey}': { get: { summary: '<script>x</script> tokens' } } }));
    expect(html).toContain('<code>/v1/swaps/tokens/{chainKey}</code>');
    expect(html).toContain('&#60;script&#62;x&#60;/script&#62; tokens');
    expect(html).not.toContain('<script>');
  });
});
