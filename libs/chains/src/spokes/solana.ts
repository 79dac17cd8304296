import { getBase58Decoder, getBase58Encoder } from '@solana/kit';
import { hexToBytes, toHex } from 'viem';
import { SolanaAdapter } from '../solana-adapter';
import type { SpokeNetwork } from './spoke-network';

export const SOLANA: SpokeNetwork = {
  type: 'SOLANA',
  addressBytes: (address) => toHex(new Uint8Array(getBase58Encoder().encode(address))),
  addressOfBytes: (bytes) => (/^0x[0-9a-fA-F]{64}$/.test(bytes) ? getBase58Decoder().decode(hexToBytes(bytes)) : undefined),
  maxAmount: (1n << 64n) - 1n,
  maxAmountName: '64 bits',
  depositCarriesDataHash: true,
  createAdapter: (chain, options) => new SolanaAdapter(chain, options),
};
