import { SetMetadata } from '@nestjs/common';
import type { RouteFamily, Scope } from '@swap/contracts';

export const KEYED_ROUTE = 'swap:keyed-route';

export interface KeyedRouteOptions {
  family: RouteFamily;
  /** The scope a key needs here; sponsoring keys have none. */
  scope?: Scope;
}

/** Marks a route as checked by the API key guard, in the mode of its family. */
export const KeyedRoute = (options: KeyedRouteOptions) => SetMetadata(KEYED_ROUTE, options);
