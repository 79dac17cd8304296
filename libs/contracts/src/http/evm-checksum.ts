import { getAddress, type Address } from 'viem';
import { keccakOfText } from '../domain/keccak';

/** An address as given → its EIP-55 form; emptied when full (answers repeat few addresses: tokens, solvers, contracts). */
const forms = new Map<string, Address>();
const MAX_FORMS = 10_000;

/** A plain map: viem's LRU caches cost more than the keccak they save on hot paths (18% of relay-tracker's CPU). */
export function checksummedAddress(address: string): Address {
  // Kept by the text given (the index's lower case, a client's checksum): a hit allocates nothing.
  let form = forms.get(address);
  if (form === undefined) {
    if (forms.size >= MAX_FORMS) forms.clear();
    form = eip55(address.toLowerCase());
    forms.set(address, form);
  }
  return form;
}

/** The text's EIP-55 form when it is a 20-byte hex address (a known one costs one lookup), else undefined. */
export function checksummedIfAddress(text: string): Address | undefined {
  const form = forms.get(text);
  if (form !== undefined) return form;
  return EVM_ADDRESS_PATTERN.test(text) ? checksummedAddress(text) : undefined;
}

export const EVM_ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;

function eip55(lower: string): Address {
  const digest = EVM_ADDRESS_PATTERN.test(lower) ? keccakOfText(lower.slice(2)) : undefined;
  if (digest === undefined) return getAddress(lower);
  const form = Buffer.from(lower, 'latin1');
  // A letter is upper case where the digest's nibble is 8 or more ('8', '9', 'a'–'f').
  for (let i = 0; i < 40; i++) if (form[i + 2]! > 0x60 && digest.charCodeAt(i) >= 0x38) form[i + 2]! -= 0x20;
  return form.toString('latin1') as Address;
}

/** A transaction or intent hash: 0x and 64 hex digits, either case. */
export const EVM_HASH_PATTERN = /^0x[0-9a-fA-F]{64}$/;

export function isEvmAddressText(value: unknown): value is string {
  if (typeof value !== 'string' || !EVM_ADDRESS_PATTERN.test(value)) return false;
  const digits = value.slice(2);
  return digits === digits.toLowerCase() || digits === digits.toUpperCase() || checksummedAddress(value) === value;
}
