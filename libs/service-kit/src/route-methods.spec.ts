import { FastifyAdapter } from '@nestjs/platform-fastify';
import { RouteMethods } from './route-methods';

describe('RouteMethods: which methods a path answers', () => {
  it('matches parameters and wildcards, adds HEAD with GET, and ignores CORS OPTIONS on every path', async () => {
    const fastify = new FastifyAdapter().getInstance();
    const routes = new RouteMethods();
    routes.watch(fastify);
    const ok = async () => 'ok';
    fastify.get('/v1/swaps/tokens/:chainKey', ok);
    fastify.post('/v1/swaps/quote', ok);
    fastify.put('/v1/swaps/quote', ok);
    fastify.route({ method: ['GET', 'POST'], url: '/portal/*', handler: ok });
    fastify.options('*', ok);
    fastify.get('/v1/a.b(c)', ok);
    await fastify.ready();
    expect(routes.allowed('/v1/swaps/tokens/0xa4b1.arbitrum')).toEqual(['GET', 'HEAD']);
    expect(routes.allowed('/v1/swaps/tokens/0xa4b1.arbitrum/deeper')).toEqual([]);
    expect(routes.allowed('/v1/swaps/quote')).toEqual(['POST', 'PUT']);
    expect(routes.allowed('/portal/orgs/1')).toEqual(['GET', 'HEAD', 'POST']);
    expect(routes.allowed('/v1/nothing')).toEqual([]);
    expect(routes.allowed('/v1/a.b(c)')).toEqual(['GET', 'HEAD']);
    expect(routes.allowed('/v1/aXb(c)')).toEqual([]);
    await fastify.close();
  });
});
