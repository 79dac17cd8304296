import type * as StellarSdk from '@stellar/stellar-sdk';
import { toHex, type Hex } from 'viem';
import type * as StellarAdapterModule from './stellar-adapter';
import type { SpokeNetwork } from './spoke-network';

/*
 * The Stellar SDK is loaded on first use, not when the registry is: every service (and
 * every spec) importing @swap/chains would otherwise load it, as network-addresses.ts
 * avoids too; and Jest cannot load it without help (see stellar.spec.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const stellarSdk = (): typeof StellarSdk => require('@stellar/stellar-sdk');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const adapterModule = (): typeof StellarAdapterModule => require('./stellar-adapter');

/**
 * Stellar: addresses travel as the XDR of their ScVal (scvAddress of an account or a
 * contract), as the public client's encodeAddress writes them; the asset manager's
 * `transfer` takes a u128 amount.
 */
export const STELLAR: SpokeNetwork = {
  type: 'STELLAR',
  addressBytes: (address) => toHex(stellarSdk().Address.fromString(address).toScVal().toXdr()),
  addressOfBytes,
  maxAmount: (1n << 128n) - 1n,
  maxAmountName: '128 bits',
  depositCarriesDataHash: false,
  createAdapter: (chain, options) => new (adapterModule().StellarAdapter)(chain, options),
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
