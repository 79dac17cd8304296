import { mergeDocuments, type OpenApiDocument } from './merge-documents';

const doc = (paths: OpenApiDocument['paths'], schemas: Record<string, unknown> = {}): OpenApiDocument => ({
  openapi: '3.0.0',
  info: { title: 't', version: '1' },
  paths,
  components: { schemas },
});

const OPTIONS = {
  info: { title: 'API', version: '1' },
  servers: [{ url: '/' }],
  tags: [
    { name: 'first', description: 'd1' },
    { name: 'second', description: 'd2' },
  ],
  errorSchemaFor: (path: string) => (path.startsWith('/v1/intent/') ? 'SolverError' : 'Error'),
};
const ref = (name: string) => ({ content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } });

describe('mergeDocuments', () => {
  it('keeps only the paths a service serves under its gateway prefixes', () => {
    const merged = mergeDocuments(
      [
        {
          service: 'swap-gateway',
          prefixes: ['/v1/swaps'],
          document: doc({ '/v1/swaps/tokens': { get: {} }, '/internal/debug': { get: {} } }),
        },
      ],
      OPTIONS,
    );
    expect(Object.keys(merged.paths)).toEqual(['/v1/swaps/tokens']);
  });

  it('renames a clashing schema of a later service and rewrites its references', () => {
    const a = doc(
      {
        '/v1/swaps/x': {
          get: { responses: { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } } } },
        },
      },
      { Item: { type: 'string' } },
    );
    const b = doc(
      {
        '/v1/be/y': {
          get: { responses: { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } } } },
        },
      },
      { Item: { type: 'number' } },
    );
    const merged = mergeDocuments(
      [
        { service: 'swap-gateway', prefixes: ['/v1/swaps'], document: a },
        { service: 'oracle-candles', prefixes: ['/v1/be'], document: b },
      ],
      OPTIONS,
    );
    expect(merged.components!.schemas).toEqual({ Item: { type: 'string' }, 'oracle-candles.Item': { type: 'number' } });
    expect(JSON.stringify(merged.paths['/v1/be/y'])).toContain('#/components/schemas/oracle-candles.Item');
    expect(JSON.stringify(merged.paths['/v1/swaps/x'])).toContain('#/components/schemas/Item"');
  });

  it('orders tags and paths by the given flow, keeping a service’s own order within a tag', () => {
    const merged = mergeDocuments(
      [
        {
          service: 'swap-gateway',
          prefixes: ['/v1/swaps'],
          document: doc({
            '/v1/swaps/c': { get: { tags: ['second'] } },
            '/v1/swaps/b': { get: { tags: ['first'] } },
            '/v1/swaps/a': { post: { tags: ['first'] } },
          }),
        },
      ],
      OPTIONS,
    );
    expect(merged.tags).toEqual([
      { name: 'first', description: 'd1' },
      { name: 'second', description: 'd2' },
    ]);
    expect(Object.keys(merged.paths)).toEqual(['/v1/swaps/b', '/v1/swaps/a', '/v1/swaps/c']);
  });

  it('gives every operation its error responses in the shape of its path, a 400 only where it takes input, the gateway’s 429 everywhere', () => {
    const merged = mergeDocuments(
      [
        {
          service: 'swap-gateway',
          prefixes: ['/v1/swaps'],
          document: doc(
            { '/v1/swaps/tokens': { get: {} }, '/v1/swaps/quote': { post: { requestBody: {} } } },
            { Error: { type: 'object' } },
          ),
        },
        {
          service: 'quote-builder',
          prefixes: ['/v1/intent'],
          document: doc({ '/v1/intent/quote': { post: { requestBody: {} } } }, { SolverError: { type: 'object' } }),
        },
      ],
      OPTIONS,
    );
    expect(merged.paths['/v1/swaps/tokens'].get.responses).toEqual({
      '429': expect.objectContaining(ref('Error')),
      default: expect.objectContaining(ref('Error')),
    });
    expect(merged.paths['/v1/swaps/quote'].post.responses).toEqual({
      '400': expect.objectContaining(ref('Error')),
      '429': expect.objectContaining(ref('Error')),
      default: expect.objectContaining(ref('Error')),
    });
    expect(merged.paths['/v1/intent/quote'].post.responses!['400']).toEqual(expect.objectContaining(ref('SolverError')));
    expect(merged.paths['/v1/intent/quote'].post.responses!['429']).toEqual(expect.objectContaining(ref('SolverError')));
  });

  it('marks an operation that declares no security as public (security: []), keeping what a service declared', () => {
    const merged = mergeDocuments(
      [
        {
          service: 'swap-gateway',
          prefixes: ['/v1/swaps'],
          document: doc({
            '/v1/swaps/tokens': { get: {} },
            '/v1/swaps/quote': { post: { security: [{ apiKey: [] }], responses: { '429': { description: 'own' } } } },
          }),
        },
      ],
      OPTIONS,
    );
    expect(merged.paths['/v1/swaps/tokens'].get.security).toEqual([]);
    expect(merged.paths['/v1/swaps/quote'].post.security).toEqual([{ apiKey: [] }]);
    expect(merged.paths['/v1/swaps/quote'].post.responses!['429']).toEqual({ description: 'own' });
    expect(merged.servers).toEqual([{ url: '/' }]);
  });

  it('leaves out schemas no public path reaches, following references between schemas', () => {
    const merged = mergeDocuments(
      [
        {
          service: 'swap-gateway',
          prefixes: ['/v1/swaps'],
          document: doc(
            {
              '/v1/swaps/x': { get: { responses: { '200': ref('Outer') } } },
              '/internal/y': { get: { responses: { '200': ref('Hidden') } } },
            },
            {
              Outer: { properties: { inner: { $ref: '#/components/schemas/Inner' } } },
              Inner: { type: 'string' },
              Hidden: {},
              BusMessage: {},
              Error: {},
            },
          ),
        },
      ],
      OPTIONS,
    );
    expect(Object.keys(merged.components!.schemas!).sort()).toEqual(['Error', 'Inner', 'Outer']);
  });

  it('writes a nullable reference as "the reference, or null" (OpenAPI 3.0.3 reads nullable beside allOf as not null)', () => {
    const merged = mergeDocuments(
      [
        {
          service: 'swap-gateway',
          prefixes: ['/v1/swaps'],
          document: doc(
            { '/v1/swaps/x': { get: { responses: { '200': ref('Outer') } } } },
            {
              Outer: {
                properties: { fee: { nullable: true, type: 'object', allOf: [{ $ref: '#/components/schemas/Fee' }], description: 'd' } },
              },
              Fee: {},
            },
          ),
        },
      ],
      OPTIONS,
    );
    expect((merged.components!.schemas!.Outer as { properties: Record<string, unknown> }).properties.fee).toEqual({
      description: 'd',
      anyOf: [{ $ref: '#/components/schemas/Fee' }, { type: 'object', nullable: true, enum: [null] }],
    });
  });
});
