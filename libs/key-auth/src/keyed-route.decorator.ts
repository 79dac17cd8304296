import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiResponse, ApiSecurity } from '@nestjs/swagger';
import { API_KEY_SCHEME, ErrorBodyDto, type RouteFamily, type Scope } from '@swap/contracts';

export const KEYED_ROUTE = 'swap:keyed-route';

export interface KeyedRouteOptions {
  family: RouteFamily;
  /** Sponsoring keys have none. */
  scope?: Scope;
}

/** Checked by the API key guard, and said so in OpenAPI (spec, Errors). */
export const KeyedRoute = (options: KeyedRouteOptions) => {
  const key =
    options.family === 'sponsorships'
      ? 'a sponsoring key (spk_…; portal keys are not accepted)'
      : `a key with scope ${options.scope ?? 'any'}`;
  const mode =
    options.family === 'sponsorships'
      ? 'always enforced'
      : `checked in the enforcement mode of the ${options.family} family (off: served without a key)`;
  return applyDecorators(
    SetMetadata(KEYED_ROUTE, options),
    ApiSecurity(API_KEY_SCHEME),
    ApiResponse({ status: 401, type: ErrorBodyDto, description: `Missing x-api-key, or Invalid API key (${mode}; needs ${key})` }),
    ApiResponse({
      status: 403,
      type: ErrorBodyDto,
      description: 'API key is missing the scope of the route, or This organisation is suspended',
    }),
    ApiResponse({
      status: 503,
      type: ErrorBodyDto,
      description:
        'API key verification is temporarily unavailable (retry; the request was not handled), or a dependency of the route is down',
    }),
  );
};
