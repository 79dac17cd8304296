import { ValidateBy, buildMessage, type ValidationOptions } from 'class-validator';
import { isAddress } from 'viem';

const UINT256_MAX = (1n << 256n) - 1n;

/** A uint256 as a decimal string: digits only (no sign, exponent or fraction), at most 2^256 - 1. */
export function isUint256String(value: unknown): boolean {
  return typeof value === 'string' && /^(0|[1-9]\d{0,77})$/.test(value) && BigInt(value) <= UINT256_MAX;
}

export function IsUint256String(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isUint256String',
      validator: {
        validate: isUint256String,
        defaultMessage: buildMessage((each) => `${each}$property must be a non-negative integer in a decimal string, at most 2^256 - 1`, options),
      },
    },
    options,
  );
}

/**
 * An EVM address as text: 0x and 40 hex digits; when the letters mix cases they must be a
 * valid EIP-55 checksum (a wrong one is a typo, not an address), while all lower or all
 * upper case carries no checksum. The one rule every field holding an EVM address follows.
 */
export function isEvmAddressText(value: unknown): value is string {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) return false;
  const digits = value.slice(2);
  return digits === digits.toLowerCase() || digits === digits.toUpperCase() || isAddress(value, { strict: true });
}

export function IsEvmAddress(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isEvmAddress',
      validator: {
        // Mixed case must be a valid EIP-55 checksum: a wrong one is a typo, not an address.
        validate: isEvmAddressText,
        defaultMessage: buildMessage((each) => `${each}$property must be a 20-byte hex address (0x and 40 hex digits, EIP-55 checksummed if mixed case)`, options),
      },
    },
    options,
  );
}

export function IsHexBytes(options?: ValidationOptions & { maxBytes?: number }): PropertyDecorator {
  const max = options?.maxBytes ?? 65_536;
  return ValidateBy(
    {
      name: 'isHexBytes',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && /^0x([0-9a-fA-F]{2})*$/.test(value) && value.length <= 2 + 2 * max,
        defaultMessage: buildMessage((each) => `${each}$property must be 0x-prefixed hex bytes (an even number of hex digits, at most ${max} bytes)`, options),
      },
    },
    options,
  );
}
