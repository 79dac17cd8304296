import { bcs } from '@mysten/sui/bcs';
import { normalizeSuiAddress } from '@mysten/sui/utils';
import { hexToBytes, toHex } from 'viem';
import { SuiAdapter } from './sui-adapter';
import type { SpokeNetwork } from './spoke-network';

export const SUI: SpokeNetwork = {
  type: 'SUI',
  addressBytes: (address) => toHex(bcs.Address.serialize(address).toBytes()),
  addressOfBytes: (bytes) => (/^0x[0-9a-fA-F]{64}$/.test(bytes) ? normalizeSuiAddress(bcs.Address.parse(hexToBytes(bytes))) : undefined),
  maxAmount: (1n << 64n) - 1n,
  maxAmountName: '64 bits',
  depositCarriesDataHash: false,
  createAdapter: (chain, options) => new SuiAdapter(chain, options),
};
