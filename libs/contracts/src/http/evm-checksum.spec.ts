import { randomBytes } from 'node:crypto';
import { getAddress } from 'viem';
import { keccakReady } from '../domain/keccak';
import { checksummedAddress, checksummedIfAddress, isEvmAddressText } from './evm-checksum';

describe('checksummedAddress', () => {
  it('is viem’s EIP-55 form whatever the case it is given, repeatedly', () => {
    for (let i = 0; i < 200; i++) {
      const lower = `0x${randomBytes(20).toString('hex')}`;
      const form = getAddress(lower);
      for (const given of [lower, lower.toUpperCase().replace('0X', '0x'), form]) expect(checksummedAddress(given)).toBe(form);
    }
  });

  it('is viem’s form from the WebAssembly Keccak too, once it is ready', async () => {
    await keccakReady;
    for (let i = 0; i < 500; i++) {
      const lower = `0x${randomBytes(20).toString('hex')}`;
      expect(checksummedAddress(lower)).toBe(getAddress(lower));
    }
  });

  it('checksummedIfAddress: the form of an address text, undefined for any other text', () => {
    const lower = `0x${randomBytes(20).toString('hex')}`;
    expect(checksummedIfAddress(lower)).toBe(getAddress(lower));
    expect(checksummedIfAddress(lower)).toBe(getAddress(lower));
    for (const other of ['', '0x', lower.slice(0, 41), `${lower}0`, 'So11111111111111111111111111111111111111112', `0x${'g'.repeat(40)}`])
      expect(checksummedIfAddress(other)).toBeUndefined();
  });

  it('backs the address rule: lower and upper case pass, a mixed case must be the checksum', () => {
    const form = getAddress(`0x${randomBytes(20).toString('hex')}`);
    expect(isEvmAddressText(form)).toBe(true);
    expect(isEvmAddressText(form.toLowerCase())).toBe(true);
    expect(isEvmAddressText(`0x${form.slice(2).toUpperCase()}`)).toBe(true);
    const flipped = form.replace(/[a-f]/, (c) => c.toUpperCase());
    if (flipped !== form) expect(isEvmAddressText(flipped)).toBe(false);
    expect(isEvmAddressText('0x1234')).toBe(false);
  });
});
