import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsObject, ValidateBy, ValidateNested, buildMessage, type ValidationOptions } from 'class-validator';
import type { FieldViolation } from '../errors';
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
        defaultMessage: buildMessage(
          (each) => `${each}$property must be a non-negative integer in a decimal string, at most 2^256 - 1`,
          options,
        ),
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
/** A 32-byte hash as EVM networks write it (a transaction hash, an intent hash): 0x and 64 hex digits, either case. */
export const EVM_HASH_PATTERN = /^0x[0-9a-fA-F]{64}$/;

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
        defaultMessage: buildMessage(
          (each) => `${each}$property must be a 20-byte hex address (0x and 40 hex digits, EIP-55 checksummed if mixed case)`,
          options,
        ),
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
        defaultMessage: buildMessage(
          (each) => `${each}$property must be 0x-prefixed hex bytes (an even number of hex digits, at most ${max} bytes)`,
          options,
        ),
      },
    },
    options,
  );
}

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

/**
 * Whether a text is an account address on a network of the given kind (the registry's
 * chain `type`): EVM as isEvmAddressText, Solana a base58 public key (32 to 44
 * characters). Kinds without a rule here pass; their services check them. One rule for
 * every field that names a wallet on a chosen network.
 */
export function addressProblemOn(chainType: string, field: string, value: string): FieldViolation | undefined {
  if (chainType === 'EVM' && !isEvmAddressText(value)) {
    return {
      field,
      rule: 'evmAddress',
      message: `${field} must be a 20-byte hex address on an EVM network (EIP-55 checksummed if mixed case)`,
    };
  }
  if (chainType === 'SOLANA' && (!BASE58.test(value) || value.length < 32 || value.length > 44)) {
    return { field, rule: 'solanaAddress', message: `${field} must be a base58 public key on Solana` };
  }
  return undefined;
}

/** Whether a text is a transaction id on a network of the given kind (EVM: 32-byte hash; Solana: base58 signature). */
export function txHashProblemOn(chainType: string, field: string, value: string): FieldViolation | undefined {
  if (chainType === 'EVM' && !EVM_HASH_PATTERN.test(value)) {
    return { field, rule: 'evmTxHash', message: `${field} must be 0x followed by 64 hex digits on an EVM network` };
  }
  if (chainType === 'SOLANA' && (!BASE58.test(value) || value.length < 64 || value.length > 88)) {
    return { field, rule: 'solanaSignature', message: `${field} must be a base58 transaction signature on Solana` };
  }
  return undefined;
}

/**
 * A nested object field: validated as its class, and an object (class-validator's
 * ValidateNested alone lets an array through, whose elements it checks instead: `[]`
 * passed as an intent). The one way a DTO nests another.
 */
export function NestedObject(type: () => new () => object): PropertyDecorator {
  return applyDecorators(ValidateNested(), Type(type), IsObject({ message: '$property must be an object' }));
}
