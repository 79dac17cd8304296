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
