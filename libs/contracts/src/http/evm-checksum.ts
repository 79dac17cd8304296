import { getAddress, type Address } from 'viem';

/** An address as given → its EIP-55 form; emptied when full (answers repeat few addresses: tokens, solvers, contracts). */
const forms = new Map<string, Address>();
const MAX_FORMS = 10_000;

/** A plain map: viem's LRU caches cost more than the keccak they save on hot paths (18% of relay-tracker's CPU). */
export function checksummedAddress(address: string): Address {
  // Kept by the text given (the index's lower case, a client's checksum): a hit allocates nothing.
  let form = forms.get(address);
  if (form === undefined) {
    if (forms.size >= MAX_FORMS) forms.clear();
    form = getAddress(address.toLowerCase());
    forms.set(address, form);
  }
  return form;
}

/** A transaction or intent hash: 0x and 64 hex digits, either case. */
export const EVM_HASH_PATTERN = /^0x[0-9a-fA-F]{64}$/;

export function isEvmAddressText(value: unknown): value is string {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) return false;
  const digits = value.slice(2);
  return digits === digits.toLowerCase() || digits === digits.toUpperCase() || checksummedAddress(value) === value;
}
