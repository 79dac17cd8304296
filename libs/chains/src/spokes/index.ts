import type { ChainType } from '../chain-directory';
import { ICON } from './icon';
import { INJECTIVE } from './injective';
import { SOLANA } from './solana';
import type { SpokeNetwork } from './spoke-network';
import { STELLAR } from './stellar';
import { SUI } from './sui';

export * from './spoke-network';

export const SPOKE_NETWORKS: Partial<Record<ChainType, SpokeNetwork>> = { SOLANA, SUI, STELLAR, INJECTIVE, ICON };

export function spokeNetworkOf(type: ChainType): SpokeNetwork | undefined {
  return SPOKE_NETWORKS[type];
}
