import { OpenApiContract } from './openapi-contract';

const json = new Headers({ 'content-type': 'application/json; charset=utf-8' });
const doc = {
  paths: {
    '/v1/things/{id}': {
      get: {
        responses: {
          '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          default: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
    },
    '/v1/things/count': {
      get: {
        responses: { '200': { content: { 'application/json': { schema: { type: 'object', properties: { n: { type: 'integer' } } } } } } },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        required: ['id'],
        properties: {
          id: { type: 'string' },
          owner: { anyOf: [{ $ref: '#/components/schemas/Owner' }, { type: 'object', nullable: true, enum: [null] }] },
        },
      },
      Owner: { type: 'object', properties: { name: { type: 'string' } } },
      Error: { type: 'object', required: ['code'], properties: { code: { type: 'string' } } },
    },
  },
};

describe('OpenApiContract', () => {
  it('accepts answers that match, literal paths before templates, a nullable reference as null', () => {
    const c = new OpenApiContract(doc);
    expect(c.check({ method: 'GET', path: '/v1/things/count?x=1', status: 200, body: { n: 3 }, headers: json })).toBe(
      'GET /v1/things/count',
    );
    expect(c.check({ method: 'GET', path: '/v1/things/a1', status: 200, body: { id: 'a1', owner: null }, headers: json })).toBe(
      'GET /v1/things/{id}',
    );
    expect(c.check({ method: 'GET', path: '/v1/things/a1', status: 404, body: { code: 'NOT_FOUND' }, headers: json })).toBe(
      'GET /v1/things/{id}',
    );
    expect(c.violations).toEqual([]);
    expect([...c.good]).toEqual(['GET /v1/things/count', 'GET /v1/things/{id}']);
    expect([...c.bad]).toEqual(['GET /v1/things/{id}']);
  });

  it('reports an undocumented field, a wrong type, an undocumented status, a 5xx and an unknown route', () => {
    const c = new OpenApiContract(doc);
    c.check({ method: 'GET', path: '/v1/things/a1', status: 200, body: { id: 'a1', secret: 'x' }, headers: json });
    c.check({ method: 'GET', path: '/v1/things/a1', status: 200, body: { id: 'a1', owner: { name: 5 } }, headers: json });
    c.check({ method: 'GET', path: '/v1/things/count', status: 404, body: {}, headers: json });
    c.check({ method: 'GET', path: '/v1/things/a1', status: 500, body: { code: 'INTERNAL' }, headers: json });
    c.check({ method: 'POST', path: '/v1/nowhere', status: 404, body: {}, headers: json });
    expect(c.violations).toEqual([
      expect.stringContaining('must NOT have additional properties'),
      expect.stringContaining('body/owner/name must be string'),
      expect.stringContaining('status not documented'),
      expect.stringContaining('a 5xx'),
      expect.stringContaining('no documented operation'),
    ]);
  });
});
