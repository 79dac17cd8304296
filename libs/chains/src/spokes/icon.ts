import type { Hex } from 'viem';
import { IconAdapter } from './icon-adapter';
import type { SpokeNetwork } from './spoke-network';

/** IRC2 amounts are unbounded integers: the bound is the public client's uint256. */
export const ICON: SpokeNetwork = {
  type: 'ICON',
  addressBytes: (address) => `0x${address.startsWith('cx') ? '01' : '00'}${address.slice(2)}` as Hex,
  addressOfBytes: (bytes) => {
    const match = /^0x(00|01)([0-9a-fA-F]{40})$/.exec(bytes);
    if (!match) return undefined;
    return `${match[1] === '01' ? 'cx' : 'hx'}${match[2].toLowerCase()}`;
  },
  maxAmount: (1n << 256n) - 1n,
  maxAmountName: '256 bits',
  depositCarriesDataHash: false,
  createAdapter: (chain, options) => new IconAdapter(chain, options),
};
