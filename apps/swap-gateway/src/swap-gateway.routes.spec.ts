import 'reflect-metadata';
import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { KEYED_ROUTE, type KeyedRouteOptions } from '@swap/key-auth';
import { SwapGatewayModule } from './swap-gateway.module';

/*
 * Which routes swap-gateway serves and which key each needs, read from the decorators of
 * every controller its module tree declares (nothing is started). The scopes are the
 * spec's (docs/integrators/api-keys.md#scopes), written out here rather than taken
 * from SWAPS_POST_ROUTES, so a scope that moves there shows here.
 */

interface Route {
  method: string;
  path: string;
  key: KeyedRouteOptions | null;
}

/** Every controller of a module and of the modules it imports (static or dynamic). */
function controllersOf(module: unknown, seen = new Set<unknown>()): Type[] {
  const target = (module as { module?: unknown }).module ?? module;
  if (!target || seen.has(target)) return [];
  seen.add(target);
  const own = (Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, target) ?? []) as Type[];
  const dynamic = ((module as { controllers?: Type[] }).controllers ?? []) as Type[];
  const imports = (Reflect.getMetadata(MODULE_METADATA.IMPORTS, target) ?? []) as unknown[];
  return [...own, ...dynamic, ...imports.flatMap((i) => controllersOf(i, seen))];
}

function routesOf(controller: Type): Route[] {
  const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
  const proto = controller.prototype as Record<string, unknown>;
  return Object.getOwnPropertyNames(proto)
    .map((name) => proto[name])
    .filter((handler): handler is object => typeof handler === 'function' && Reflect.getMetadata(METHOD_METADATA, handler) !== undefined)
    .map((handler) => {
      const path = String(Reflect.getMetadata(PATH_METADATA, handler));
      const joined = `/${[base, path]
        .map((p) => p.replace(/^\/+|\/+$/g, ''))
        .filter(Boolean)
        .join('/')}`;
      return {
        method: RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod],
        path: joined,
        key: (Reflect.getMetadata(KEYED_ROUTE, handler) as KeyedRouteOptions | undefined) ?? null,
      };
    });
}

const HTTP_ROUTES = controllersOf(SwapGatewayModule)
  .flatMap(routesOf)
  .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));

describe('swap-gateway routes and their keys', () => {
  it('serves each of the 13 swaps POST routes once, keyed in the swaps family with the spec’s scope', () => {
    const read = { family: 'swaps', scope: 'swaps:read' };
    const write = { family: 'swaps', scope: 'swaps:write' };
    expect(HTTP_ROUTES.filter((r) => r.method === 'POST' && r.path.startsWith('/v1/swaps/'))).toEqual([
      { method: 'POST', path: '/v1/swaps/allowance/check', key: read },
      { method: 'POST', path: '/v1/swaps/approve', key: read },
      { method: 'POST', path: '/v1/swaps/gas/estimate', key: read },
      { method: 'POST', path: '/v1/swaps/intents', key: write },
      { method: 'POST', path: '/v1/swaps/intents/cancel', key: write },
      { method: 'POST', path: '/v1/swaps/intents/extra-data', key: read },
      { method: 'POST', path: '/v1/swaps/intents/hash', key: read },
      { method: 'POST', path: '/v1/swaps/intents/packet', key: read },
      { method: 'POST', path: '/v1/swaps/intents/status', key: read },
      { method: 'POST', path: '/v1/swaps/intents/submit', key: write },
      { method: 'POST', path: '/v1/swaps/limit-orders', key: write },
      { method: 'POST', path: '/v1/swaps/quote', key: read },
      { method: 'POST', path: '/v1/swaps/submit-tx', key: write },
    ]);
  });

  it("keys every leveraged-yield POST route of the reference in the family's own mode, with the swaps scopes", () => {
    const read = { family: 'leverage-yield', scope: 'swaps:read' };
    const write = { family: 'leverage-yield', scope: 'swaps:write' };
    expect(HTTP_ROUTES.filter((r) => r.method === 'POST' && r.path.startsWith('/v1/leverage-yield/'))).toEqual([
      { method: 'POST', path: '/v1/leverage-yield/allowance/check', key: read },
      { method: 'POST', path: '/v1/leverage-yield/approve', key: read },
      { method: 'POST', path: '/v1/leverage-yield/gas/estimate', key: read },
      { method: 'POST', path: '/v1/leverage-yield/intents/cancel', key: write },
      { method: 'POST', path: '/v1/leverage-yield/intents/deposit', key: write },
      { method: 'POST', path: '/v1/leverage-yield/intents/extra-data', key: read },
      { method: 'POST', path: '/v1/leverage-yield/intents/hash', key: read },
      { method: 'POST', path: '/v1/leverage-yield/intents/packet', key: read },
      { method: 'POST', path: '/v1/leverage-yield/intents/status', key: read },
      { method: 'POST', path: '/v1/leverage-yield/intents/submit', key: write },
      { method: 'POST', path: '/v1/leverage-yield/intents/withdraw', key: write },
      { method: 'POST', path: '/v1/leverage-yield/quote/deposit', key: read },
      { method: 'POST', path: '/v1/leverage-yield/quote/withdraw', key: read },
      { method: 'POST', path: '/v1/leverage-yield/submit-tx', key: write },
    ]);
  });

  it('never checks a key on the GET reads', () => {
    expect(HTTP_ROUTES.filter((r) => r.method !== 'POST')).toEqual([
      { method: 'GET', path: '/v1/be/config/chains', key: null },
      { method: 'GET', path: '/v1/be/config/hub/:chainId/assets', key: null },
      { method: 'GET', path: '/v1/be/config/hub/assets', key: null },
      { method: 'GET', path: '/v1/be/config/relay/chain-id-map', key: null },
      { method: 'GET', path: '/v1/be/config/spoke/chains', key: null },
      { method: 'GET', path: '/v1/be/config/swap/:chainId/tokens', key: null },
      { method: 'GET', path: '/v1/be/config/swap/tokens', key: null },
      { method: 'GET', path: '/v1/leverage-yield/apr', key: null },
      { method: 'GET', path: '/v1/leverage-yield/apr/effective', key: null },
      { method: 'GET', path: '/v1/leverage-yield/apr/lsd', key: null },
      { method: 'GET', path: '/v1/leverage-yield/asset', key: null },
      { method: 'GET', path: '/v1/leverage-yield/deadline', key: null },
      { method: 'GET', path: '/v1/leverage-yield/fees/partner', key: null },
      { method: 'GET', path: '/v1/leverage-yield/fees/solver', key: null },
      { method: 'GET', path: '/v1/leverage-yield/intents/:txHash', key: null },
      { method: 'GET', path: '/v1/leverage-yield/intents/:txHash/fill', key: null },
      { method: 'GET', path: '/v1/leverage-yield/max-withdraw', key: null },
      { method: 'GET', path: '/v1/leverage-yield/position', key: null },
      { method: 'GET', path: '/v1/leverage-yield/preview/deposit', key: null },
      { method: 'GET', path: '/v1/leverage-yield/preview/redeem', key: null },
      { method: 'GET', path: '/v1/leverage-yield/preview/withdraw', key: null },
      { method: 'GET', path: '/v1/leverage-yield/share-balance', key: null },
      { method: 'GET', path: '/v1/leverage-yield/submit-tx/status', key: null },
      { method: 'GET', path: '/v1/leverage-yield/total-assets', key: null },
      { method: 'GET', path: '/v1/leverage-yield/vaults', key: null },
      { method: 'GET', path: '/v1/leverage-yield/vaults/:name', key: null },
      { method: 'GET', path: '/v1/swaps/deadline', key: null },
      { method: 'GET', path: '/v1/swaps/fees/partner', key: null },
      { method: 'GET', path: '/v1/swaps/fees/solver', key: null },
      { method: 'GET', path: '/v1/swaps/submit-tx/events', key: null },
      { method: 'GET', path: '/v1/swaps/submit-tx/status', key: null },
      { method: 'GET', path: '/v1/swaps/tokens', key: null },
      { method: 'GET', path: '/v1/swaps/tokens/:chainKey', key: null },
    ]);
  });
});
