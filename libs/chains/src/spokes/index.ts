import { checksummedIfAddress } from '@swap/contracts';
import type { Hex } from 'viem';
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

/** Address bytes as their network writes the address: EIP-55 on EVM, base58 on Solana, …; the bytes where they are none of its addresses. */
export function addressOfBytesOn(type: ChainType, bytes: string): string {
  return (type === 'EVM' ? checksummedIfAddress(bytes) : spokeAddressOfBytes(type, bytes)) ?? bytes;
}

/** Undefined off a non-EVM network this platform speaks, or for bytes that are none of its addresses. */
export function spokeAddressOfBytes(type: ChainType, bytes: string): string | undefined {
  const network = spokeNetworkOf(type);
  return network && /^0x([0-9a-fA-F]{2})+$/.test(bytes) ? network.addressOfBytes(bytes as Hex) : undefined;
}
