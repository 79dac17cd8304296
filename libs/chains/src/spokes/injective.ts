import { addressProblemOn } from '@swap/contracts';
import { bytesToHex, hexToBytes, isHex } from 'viem';
import { DeferredAdapter } from './deferred-adapter';
import type { SpokeNetwork } from './spoke-network';

export const INJECTIVE: SpokeNetwork = {
  type: 'INJECTIVE',
  addressBytes: (address) => bytesToHex(new TextEncoder().encode(address)),
  addressOfBytes: (bytes) => {
    if (!isHex(bytes)) return undefined;
    const text = new TextDecoder('utf-8', { fatal: false }).decode(hexToBytes(bytes));
    return addressProblemOn('INJECTIVE', 'address', text) === undefined ? text : undefined;
  },
  maxAmount: (1n << 128n) - 1n,
  maxAmountName: '128 bits',
  depositCarriesDataHash: false,
  createAdapter: (chain, options) =>
    new DeferredAdapter(chain, () => import('./injective-adapter').then(({ InjectiveAdapter }) => new InjectiveAdapter(chain, options))),
};
