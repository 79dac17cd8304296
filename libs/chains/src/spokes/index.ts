import type { ChainType } from '../chain-registry';
import { SOLANA } from './solana';
import { STELLAR } from './stellar';
import type { SpokeNetwork } from './spoke-network';

export * from './spoke-network';

/** Every network kind other than EVM whose transactions this platform builds, by the registry's chain `type`. */
export const SPOKE_NETWORKS: Partial<Record<ChainType, SpokeNetwork>> = { SOLANA, STELLAR };

export function spokeNetworkOf(type: ChainType): SpokeNetwork | undefined {
  return SPOKE_NETWORKS[type];
}
