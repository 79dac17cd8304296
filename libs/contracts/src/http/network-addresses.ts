import { base32, base58, bech32 } from '@scure/base';
import type { FieldViolation } from '../errors';
import { EVM_HASH_PATTERN, isEvmAddressText } from './evm-checksum';

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
const HEX_64 = /^[0-9a-fA-F]{64}$/;

/** CRC16-XModem, the checksum Stellar strkeys end with (SEP-23), little-endian. */
function crc16XModem(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** Not through @stellar/stellar-sdk: every service validating bodies would load it (the spec compares with StrKey). */
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

function isBech32Account(value: string, prefix: string): boolean {
  try {
    const decoded = bech32.decode(value as `${string}1${string}`);
    return decoded.prefix === prefix && bech32.fromWords(decoded.words).length === 20;
  } catch {
    return false;
  }
}

/** Per chain `type`; see docs/architecture/chains.md#addresses-and-transaction-ids. */
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

/** The one rule for every field naming a wallet on a chosen network; kinds without a rule pass. */
export function addressProblemOn(chainType: string, field: string, value: string): FieldViolation | undefined {
  const rule = ADDRESS_RULES[chainType];
  if (!rule || rule.holds(value)) return undefined;
  return { field, rule: rule.rule, message: `${field} must be ${rule.form}` };
}

/** Injective accepts a leading 0x: its explorers show both. */
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

export function txHashProblemOn(chainType: string, field: string, value: string): FieldViolation | undefined {
  const rule = TX_HASH_RULES[chainType];
  if (!rule || rule.holds(value)) return undefined;
  return { field, rule: rule.rule, message: `${field} must be ${rule.form}` };
}

/** How a transaction id of some network, chain unnamed, may be stored: its canonical text on each network whose form it has. */
export function txHashCandidates(txHash: string): string[] {
  const forms = Object.entries(TX_HASH_RULES)
    .filter(([, rule]) => rule.holds(txHash))
    .map(([type]) => canonicalTxHash(type, txHash));
  return [...new Set(forms)];
}

/** One text per transaction id, so two spellings are one submission; base58 ids are case-sensitive. */
export function canonicalTxHash(chainType: string, txHash: string): string {
  if (chainType === 'INJECTIVE') return txHash.replace(/^0x/i, '').toUpperCase();
  if (chainType === 'EVM' || chainType === 'ICON' || chainType === 'STELLAR') return txHash.toLowerCase();
  return txHash;
}

/** Hex addresses lower case; the others are case-checked forms, kept as given. */
export function canonicalAddress(chainType: string, address: string): string {
  return chainType === 'EVM' || chainType === 'SUI' ? address.toLowerCase() : address;
}
