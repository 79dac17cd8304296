import type * as StellarSdk from '@stellar/stellar-sdk';
import { toHex, type Hex } from 'viem';
import { DeferredAdapter } from './deferred-adapter';
import type { SpokeNetwork } from './spoke-network';

// Loaded on first use, else every importer of @swap/chains pays for it; encoding is synchronous, hence require.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const stellarSdk = (): typeof StellarSdk => require('@stellar/stellar-sdk');

export const STELLAR: SpokeNetwork = {
  type: 'STELLAR',
  addressBytes: (address) => toHex(stellarSdk().Address.fromString(address).toScVal().toXdr()),
  addressOfBytes,
  maxAmount: (1n << 128n) - 1n,
  maxAmountName: '128 bits',
  depositCarriesDataHash: false,
  createAdapter: (chain, options) =>
    new DeferredAdapter(chain, () => import('./stellar-adapter').then(({ StellarAdapter }) => new StellarAdapter(chain, options))),
};

function addressOfBytes(bytes: Hex): string | undefined {
  const { Address, xdr } = stellarSdk();
  let text: string;
  try {
    text = Address.fromScVal(xdr.ScVal.fromXdr(bytes.slice(2), 'hex')).toString();
  } catch {
    return undefined;
  }
  // Only the two forms an intent carries (G… accounts, C… contracts), and only their exact encoding.
  if (!/^[GC]/.test(text) || STELLAR.addressBytes(text) !== bytes.toLowerCase()) return undefined;
  return text;
}
