import { base32, base58, bech32 } from '@scure/base';
import type { FieldViolation } from '../errors';
import { EVM_HASH_PATTERN, isEvmAddressText } from './validators';

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
const HEX_64 = /^[0-9a-fA-F]{64}$/;

/** CRC16-XModem (polynomial 0x1021, initial 0), the checksum Stellar strkeys end with (SEP-23), little-endian. */
function crc16XModem(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/**
 * Whether a text is a Stellar strkey of the version byte's kind (SEP-23: base32 of version,
 * 32-byte key, CRC16). Checked here rather than through @stellar/stellar-sdk so that every
 * service validating bodies does not load the whole Stellar SDK; the unit spec compares it
 * with the SDK's StrKey.
 */
function isStrKey(value: string, version: number): boolean {
  if (value.length !== 56) return false;
  try {
    const raw = base32.decode(value);
    if (raw.length !== 35 || raw[0] !== version) return false;
    const crc = crc16XModem(raw.subarray(0, 33));
    return raw[33] === (crc & 0xff) && raw[34] === crc >> 8;
  } catch {
    return false;
  }
}
const STRKEY_ACCOUNT = 6 << 3; // G…
const STRKEY_CONTRACT = 2 << 3; // C…

/** Whether a text is a bech32 account address with the prefix, its checksum right and 20 bytes long. */
function isBech32Account(value: string, prefix: string): boolean {
  try {
    const decoded = bech32.decode(value as `${string}1${string}`);
    return decoded.prefix === prefix && bech32.fromWords(decoded.words).length === 20;
  } catch {
    return false;
  }
}

/**
 * A wallet or contract address per network kind (the registry's chain `type`), each rule
 * with the network's own checksum where it has one:
 * EVM 20-byte hex (EIP-55 when mixed case); Solana a base58 public key; Sui 0x and 64 hex
 * digits (32 bytes); Stellar a G… account or C… contract strkey (its CRC16 checked);
 * Injective bech32 `inj1…` (its checksum checked, 20 bytes); ICON `hx…` (a wallet) or `cx…`
 * (a contract) and 40 hex digits.
 */
const ADDRESS_RULES: Record<string, { rule: string; holds: (value: string) => boolean; form: string }> = {
  EVM: {
    rule: 'evmAddress',
    holds: isEvmAddressText,
    form: 'a 20-byte hex address on an EVM network (EIP-55 checksummed if mixed case)',
  },
  SOLANA: {
    rule: 'solanaAddress',
    holds: (v) => BASE58.test(v) && v.length >= 32 && v.length <= 44 && base58.decode(v).length === 32,
    form: 'a base58 public key (32 bytes) on Solana',
  },
  SUI: {
    rule: 'suiAddress',
    holds: (v) => /^0x[0-9a-fA-F]{64}$/.test(v),
    form: 'a Sui address: 0x and 64 hex digits (32 bytes)',
  },
  STELLAR: {
    rule: 'stellarAddress',
    holds: (v) => isStrKey(v, STRKEY_ACCOUNT) || isStrKey(v, STRKEY_CONTRACT),
    form: 'a Stellar account (G…) or contract (C…) strkey with a valid checksum',
  },
  INJECTIVE: {
    rule: 'injectiveAddress',
    // Lower case only: the intent carries the text's bytes, so one address has one spelling.
    holds: (v) => v === v.toLowerCase() && isBech32Account(v, 'inj'),
    form: 'an Injective bech32 address (inj1…, lower case) with a valid checksum',
  },
  ICON: {
    rule: 'iconAddress',
    holds: (v) => /^(hx|cx)[0-9a-f]{40}$/.test(v),
    form: 'an ICON address: hx (a wallet) or cx (a contract) and 40 lower-case hex digits',
  },
};

/**
 * Whether a text is an account address on a network of the given kind. Kinds without a
 * rule here pass; their services check them. One rule for every field that names a wallet
 * on a chosen network.
 */
export function addressProblemOn(chainType: string, field: string, value: string): FieldViolation | undefined {
  const rule = ADDRESS_RULES[chainType];
  if (!rule || rule.holds(value)) return undefined;
  return { field, rule: rule.rule, message: `${field} must be ${rule.form}` };
}

/**
 * Transaction ids per network kind: EVM and ICON 0x and 64 hex digits; Solana a base58
 * signature; Sui a base58 digest of 32 bytes; Stellar and Injective 64 hex digits (a
 * leading 0x accepted for Injective, whose explorers show both).
 */
const TX_HASH_RULES: Record<string, { rule: string; holds: (value: string) => boolean; form: string }> = {
  EVM: { rule: 'evmTxHash', holds: (v) => EVM_HASH_PATTERN.test(v), form: '0x followed by 64 hex digits on an EVM network' },
  SOLANA: {
    rule: 'solanaSignature',
    holds: (v) => BASE58.test(v) && v.length >= 64 && v.length <= 88,
    form: 'a base58 transaction signature on Solana',
  },
  SUI: {
    rule: 'suiDigest',
    holds: (v) => BASE58.test(v) && v.length <= 44 && base58.decode(v).length === 32,
    form: 'a base58 transaction digest (32 bytes) on Sui',
  },
  STELLAR: { rule: 'stellarTxHash', holds: (v) => HEX_64.test(v), form: '64 hex digits (no 0x) on Stellar' },
  INJECTIVE: {
    rule: 'injectiveTxHash',
    holds: (v) => HEX_64.test(v.startsWith('0x') ? v.slice(2) : v),
    form: '64 hex digits (0x optional) on Injective',
  },
  ICON: { rule: 'iconTxHash', holds: (v) => EVM_HASH_PATTERN.test(v), form: '0x followed by 64 hex digits on ICON' },
};

/** Whether a text is a transaction id on a network of the given kind. */
export function txHashProblemOn(chainType: string, field: string, value: string): FieldViolation | undefined {
  const rule = TX_HASH_RULES[chainType];
  if (!rule || rule.holds(value)) return undefined;
  return { field, rule: rule.rule, message: `${field} must be ${rule.form}` };
}

/**
 * One text per transaction id, so two spellings of one transaction are one submission:
 * hex ids lower case (EVM, ICON, Stellar), Injective's as its chain writes them (upper
 * case, no 0x); base58 ids (Solana, Sui) are case-sensitive and kept as given.
 */
export function canonicalTxHash(chainType: string, txHash: string): string {
  if (chainType === 'INJECTIVE') return txHash.replace(/^0x/i, '').toUpperCase();
  if (chainType === 'EVM' || chainType === 'ICON' || chainType === 'STELLAR') return txHash.toLowerCase();
  return txHash;
}

/** One text per wallet: hex addresses (EVM, Sui) lower case; the others are case-checked forms, kept as given. */
export function canonicalAddress(chainType: string, address: string): string {
  return chainType === 'EVM' || chainType === 'SUI' ? address.toLowerCase() : address;
}
