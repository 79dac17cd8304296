import { getBase58Decoder, getBase58Encoder } from '@solana/kit';
import { hexToBytes, toHex } from 'viem';
import { SolanaAdapter } from '../solana-adapter';
import type { SpokeNetwork } from './spoke-network';

/** Solana: addresses travel as the public key's 32 bytes; the asset manager takes a u64 amount. */
export const SOLANA: SpokeNetwork = {
  type: 'SOLANA',
  addressBytes: (address) => toHex(new Uint8Array(getBase58Encoder().encode(address))),
  addressOfBytes: (bytes) => (bytes.length === 66 ? getBase58Decoder().decode(hexToBytes(bytes)) : undefined),
  maxAmount: (1n << 64n) - 1n,
  maxAmountName: '64 bits',
  depositCarriesDataHash: false,
  createAdapter: (chain, options) => new SolanaAdapter(chain, options),
};
