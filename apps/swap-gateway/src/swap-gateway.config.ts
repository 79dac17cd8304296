import { ServiceConfig, WithBus, WithCache } from '@swap/config';
import { DefaultAdminPorts, DefaultPorts, EnforcementModes, RouteFamilies, type EnforcementMode, type RouteFamily } from '@swap/contracts';
import { Type } from 'class-transformer';
import { IsInt, Matches, Max, Min } from 'class-validator';

const MODE_LIST = new RegExp(`^((${RouteFamilies.join('|')})=(${EnforcementModes.join('|')}))(,(${RouteFamilies.join('|')})=(${EnforcementModes.join('|')}))*$`);

export class SwapGatewayConfig extends WithCache(WithBus(ServiceConfig)) {
  override PORT = DefaultPorts['swap-gateway'];
  override ADMIN_PORT = DefaultAdminPorts['swap-gateway'];

  /** The api-gateway in front (on this host in the embedded default) names the client. */
  override TRUSTED_PROXIES = 'loopback';

  /** submit-tx requests per client (validated API key, else IP) per window, duplicates included. */
  @Type(() => Number)
  @Min(1)
  @Max(1_000_000)
  @IsInt()
  SUBMIT_LIMIT_PER_CLIENT = 120;

  /** New submissions per walletAddress per window (re-submitting a tracked swap is not counted). */
  @Type(() => Number)
  @Min(1)
  @Max(1_000_000)
  @IsInt()
  SUBMIT_LIMIT_PER_WALLET = 20;

  /** The window of both submit-tx limits (fixed, from a counter's first request). */
  @Type(() => Number)
  @Min(1_000)
  @Max(86_400_000)
  @IsInt()
  SUBMIT_LIMIT_WINDOW_MS = 60_000;

  /** How often the portal key set is reloaded from key-registry (a change event reloads at once). */
  @Type(() => Number)
  @Min(100)
  @Max(3_600_000)
  @IsInt()
  KEYSET_REFRESH_MS = 15_000;

  /**
   * Key check modes until the first key set arrives from key-registry (which holds the
   * real ones): `family=mode,…`. The default is the spec's public deployment. A deployment
   * that enforces keys sets `swaps=enforce` here, so that a start while key-registry is
   * unreachable answers 503 instead of serving unchecked.
   */
  @Matches(MODE_LIST, { message: `KEY_MODES_UNTIL_LOADED must be a list like swaps=off,leverage-yield=off (families: ${RouteFamilies.join(', ')}; modes: ${EnforcementModes.join(', ')})` })
  KEY_MODES_UNTIL_LOADED = 'swaps=off,leverage-yield=off';
}

export function parseModes(list: string): Partial<Record<RouteFamily, EnforcementMode>> {
  return Object.fromEntries(list.split(',').map((pair) => pair.split('=') as [RouteFamily, EnforcementMode]));
}
